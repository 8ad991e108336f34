import { tenthsToTokens, type JobName, type ToolQuote } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import type { ToolSettings } from './tools.settings';

/**
 * The cost rule, in integer tenths: generation costs its price per image; background removal and
 * upscaling cost their price per job, whatever the factor.
 */
export function costTenths(settings: ToolSettings, tool: JobName, count = 1): number {
  const unit = settings.priceTenths[tool];
  return tool === 'generate' ? unit * count : unit;
}

/** 422 unless the size is one of settings.image_generation_sizes. */
export function checkSize(settings: ToolSettings, size: string): { width: number; height: number } {
  if (!settings.sizes.includes(size)) throw validationError({ size: [`Size must be one of ${settings.sizes.join(', ')}.`] });
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

/** 422 unless the factor is one of settings.upscale_factors. */
export function checkFactor(settings: ToolSettings, factor: number): 2 | 4 {
  if (!settings.factors.includes(factor)) throw validationError({ factor: [`Factor must be one of ${settings.factors.join(', ')}.`] });
  return factor as 2 | 4;
}

/** The quote GET /api/tools/quote returns. */
export function quote(settings: ToolSettings, tool: JobName, count: number, factor?: number): ToolQuote {
  const checkedFactor = tool === 'upscale' ? checkFactor(settings, factor ?? settings.factors[0] ?? 2) : null;
  const n = tool === 'generate' ? count : 1;
  return {
    tool,
    count: n,
    factor: checkedFactor,
    unit_price: tenthsToTokens(settings.priceTenths[tool]),
    cost: tenthsToTokens(costTenths(settings, tool, n)),
  };
}
