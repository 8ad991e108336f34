import {
  DEFAULT_UPSCALE_MODEL,
  tenthsToTokens,
  type JobName,
  type ToolQuote,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import type { ToolSettings } from './tools.settings';

/**
 * The cost rule, in integer tenths: generation costs its price per image; background removal and
 * upscaling cost their price per job, whatever the factor; an upscaling model may have its own price
 * (settings.upscale_model_prices), else it costs upscale_price.
 */
export function costTenths(settings: ToolSettings, tool: JobName, count = 1, model?: UpscaleModel): number {
  return tool === 'generate' ? unitTenths(settings, tool) * count : unitTenths(settings, tool, model);
}

function unitTenths(settings: ToolSettings, tool: JobName, model?: UpscaleModel): number {
  return (
    (tool === 'upscale' && model !== undefined ? settings.upscaleModelTenths[model] : undefined) ??
    settings.priceTenths[tool]
  );
}

/** 422 unless the size is one of settings.image_generation_sizes. */
export function checkSize(settings: ToolSettings, size: string): { width: number; height: number } {
  if (!settings.sizes.includes(size))
    throw validationError({ size: [`Size must be one of ${settings.sizes.join(', ')}.`] });
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

/** 422 unless the factor is one of settings.upscale_factors. */
export function checkFactor(settings: ToolSettings, factor: number): 2 | 4 {
  if (!settings.factors.includes(factor))
    throw validationError({ factor: [`Factor must be one of ${settings.factors.join(', ')}.`] });
  return factor as 2 | 4;
}

/** The quote GET /api/tools/quote returns. */
export function quote(
  settings: ToolSettings,
  tool: JobName,
  count: number,
  factor?: number,
  model?: UpscaleModel,
): ToolQuote {
  const checkedFactor = tool === 'upscale' ? checkFactor(settings, factor ?? settings.factors[0] ?? 2) : null;
  const checkedModel = tool === 'upscale' ? (model ?? DEFAULT_UPSCALE_MODEL) : null;
  const n = tool === 'generate' ? count : 1;
  return {
    tool,
    count: n,
    factor: checkedFactor,
    model: checkedModel,
    unit_price: tenthsToTokens(unitTenths(settings, tool, checkedModel ?? undefined)),
    cost: tenthsToTokens(costTenths(settings, tool, n, checkedModel ?? undefined)),
  };
}
