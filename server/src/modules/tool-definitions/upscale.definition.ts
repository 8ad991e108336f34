import {
  DEFAULT_UPSCALE_MODEL,
  upscaleRequestSchema,
  upscaleTool,
  type UpscaleModel,
  type UpscaleRequest,
} from '@imagestudio/contracts';
import { checkUpscaleOutput } from '../uploads';
import { checkFactor } from './tools.pricing';
import type { ToolSettings } from './tools.settings';
import { assertUpscaleModelAvailable } from '../workers';
import type { ToolDefinition } from './tool-definition';

type UpscaleParams = Omit<UpscaleRequest, 'factor'> & { factor: 2 | 4 };

/** The model's own price where settings.upscale_model_prices sets one, else upscale_price. */
function modelTenths(settings: ToolSettings, model: UpscaleModel | undefined): number {
  return (model !== undefined ? settings.upscaleModelTenths[model] : undefined) ?? settings.priceTenths.upscale;
}

/**
 * Upscaling: one price per job whatever the factor (per model where settings say so); the output must stay
 * within 64 MP; its work is the output megapixels, and each factor runs a different model.
 */
export const upscaleDefinition: ToolDefinition<'upscale', UpscaleParams> = {
  contract: upscaleTool,
  parse(fields, settings) {
    const input = upscaleRequestSchema.parse(fields);
    return { factor: checkFactor(settings, input.factor), model: input.model, output_format: input.output_format };
  },
  async assertRunnable(ctx, params) {
    // Rows from before models existed name none (they run the default, which every upscaling worker has).
    if (params.model) await assertUpscaleModelAvailable(ctx, params.model);
  },
  checkImage: (params, image) => checkUpscaleOutput(image.width, image.height, params.factor),
  costTenths: (settings, params) => modelTenths(settings, params.model),
  // Models may be priced apart: the cheapest of them and the default price.
  cheapestTenths: (settings) => Math.min(settings.priceTenths.upscale, ...Object.values(settings.upscaleModelTenths)),
  quote(settings, query) {
    const model = query.model ?? DEFAULT_UPSCALE_MODEL;
    const factor = checkFactor(settings, query.factor ?? settings.factors[0] ?? 2);
    return { count: 1, factor, model, unitTenths: modelTenths(settings, model) };
  },
  payload: (params, inputKey) => ({
    inputKey: inputKey!,
    factor: params.factor,
    model: params.model,
    outputFormat: params.output_format,
  }),
  workUnits(job) {
    if (!job.input_width || !job.input_height) return null;
    const factor = Number(job.params.factor) || 1;
    return (job.input_width * job.input_height * factor * factor) / 1e6;
  },
  comparable: (job, run) => Number(run.params.factor) === Number(job.params.factor),
};
