import { erasePrompt, eraseRequestSchema, eraseTool, type EraseRequest } from '@imagestudio/contracts';
import { checkEraseMask } from './erase-mask';
import type { ToolDefinition } from './tool-definition';

/** The request's fields as stored: `mask: true` marks the stored mask beside the input (a rerun takes it again). */
type EraseParams = Omit<EraseRequest, 'mask'> & { mask: true };

/**
 * Erase: one price per photo (erase_price). The prompt is stored as sent (absent: the contract's neutral fill,
 * filled in for the worker only). The worker's own work is blending the answer in, about constant next to the
 * images API's time, so every job is one unit of work.
 */
export const eraseDefinition: ToolDefinition<'erase', EraseParams> = {
  contract: eraseTool,
  parse: (fields) => ({ ...eraseRequestSchema.parse(fields), mask: true }),
  checkFiles: async (_params, image, files) => checkEraseMask(image, files.mask!.bytes),
  costTenths: (settings) => settings.priceTenths.erase,
  quote: (settings) => ({ count: 1, factor: null, model: null, unitTenths: settings.priceTenths.erase }),
  payload: (params, inputKey, fileKeys) => ({
    inputKey: inputKey!,
    maskKey: fileKeys.mask!,
    prompt: erasePrompt(params),
    outputFormat: params.output_format,
  }),
  workUnits: () => 1,
};
