import { validationError } from '../../lib/errors';
import type { ToolSettings } from './tools.settings';

/** The checks of request options against the site settings that the tools' definitions share. */

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
