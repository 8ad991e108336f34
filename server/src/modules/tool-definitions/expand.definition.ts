import {
  expandPrompt,
  expandRefusal,
  expandRequestSchema,
  expandTool,
  type ExpandRequest,
} from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import type { ToolDefinition } from './tool-definition';

/**
 * Expand: one price per photo (expand_price). Each photo is checked against the canvas choice before anything is
 * charged (already at the size limit, a canvas past it, or nothing to add: 422), with the same rules the worker
 * builds its canvas by. Its work is one call of the images API, about the same whatever the photo.
 */
export const expandDefinition: ToolDefinition<'expand', ExpandRequest> = {
  contract: expandTool,
  parse: (fields) => ({ ...expandRequestSchema.parse(fields) }),
  checkImage(params, image) {
    const refusal = expandRefusal(image, params);
    if (refusal) throw validationError({ image: [refusal] });
  },
  costTenths: (settings) => settings.priceTenths.expand,
  quote: (settings) => ({ count: 1, factor: null, model: null, unitTenths: settings.priceTenths.expand }),
  payload: (params, inputKey) => ({
    inputKey: inputKey!,
    aspect: params.aspect,
    factor: params.factor,
    position: params.position,
    prompt: expandPrompt(params),
    outputFormat: params.output_format,
  }),
  workUnits: () => 1,
};
