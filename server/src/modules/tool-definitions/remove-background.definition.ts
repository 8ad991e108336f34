import {
  removeBackgroundRequestSchema,
  removeBackgroundTool,
  type RemoveBackgroundRequest,
} from '@imagestudio/contracts';
import type { ToolDefinition } from './tool-definition';

/**
 * Background removal: one price per image. Its model runs at one fixed input size whatever the photo, so every
 * job is one unit of work.
 */
export const removeBackgroundDefinition: ToolDefinition<'remove-background', RemoveBackgroundRequest> = {
  contract: removeBackgroundTool,
  parse: (fields) => ({ ...removeBackgroundRequestSchema.parse(fields) }),
  costTenths: (settings) => settings.priceTenths['remove-background'],
  quote: (settings) => ({ count: 1, factor: null, model: null, unitTenths: settings.priceTenths['remove-background'] }),
  payload: (params, inputKey) => ({
    inputKey: inputKey!,
    outputFormat: params.output_format,
    backgroundColor: params.background_color ?? undefined,
    maskOnly: params.mask_only ?? false,
  }),
  workUnits: () => 1,
};
