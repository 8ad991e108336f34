import {
  JOB_NAMES,
  TOOL_PRICE_SETTINGS,
  tokensToTenths,
  type JobName,
  type Settings,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { type CatalogDeps, getSettings } from '../catalog';

/** The settings the tools need, prices already in integer tenths of a token. */
export interface ToolSettings {
  priceTenths: Record<JobName, number>;
  /** Upscale price per model where settings.upscale_model_prices sets one; others cost priceTenths.upscale. */
  upscaleModelTenths: Partial<Record<UpscaleModel, number>>;
  sizes: string[];
  factors: number[];
}

type PriceKeys =
  (typeof TOOL_PRICE_SETTINGS)[JobName] | 'upscale_model_prices' | 'image_generation_sizes' | 'upscale_factors';

/** Turns settings (any source) into ToolSettings. */
export function toToolSettings(s: Pick<Settings, PriceKeys>): ToolSettings {
  return {
    priceTenths: Object.fromEntries(
      JOB_NAMES.map((tool) => [tool, tokensToTenths(s[TOOL_PRICE_SETTINGS[tool]])]),
    ) as Record<JobName, number>,
    upscaleModelTenths: Object.fromEntries(
      Object.entries(s.upscale_model_prices).map(([m, price]) => [m, tokensToTenths(price)]),
    ),
    sizes: [...s.image_generation_sizes],
    // The queue contract runs 2x and 4x; a factor the worker cannot run is never offered.
    factors: s.upscale_factors.filter((f) => f === 2 || f === 4),
  };
}

/** Reads the tool settings through the catalog's cached site settings. */
export async function readToolSettings(ctx: CatalogDeps): Promise<ToolSettings> {
  return toToolSettings(await getSettings(ctx));
}
