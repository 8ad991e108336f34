import { LIMITS, tokensToTenths, type REMOVEBG_SIZES, type Settings } from '@imagestudio/contracts';

/** remove.bg's output sizes, each priced by its own setting (`removebg_api_prices`). */
type PriceClass = 'preview' | 'medium' | 'hd' | 'full';

export interface OutputSize {
  /** The `size` value as sent (lower case). */
  name: string;
  priceClass: PriceClass;
  /** The most pixels of the input the job gets: a larger input is reduced to this before the job runs. */
  maxPixels: number;
  /** `50MP`: an input over our own limit is `resolution_too_high` rather than `invalid_dimensions`. */
  asksOverLimit: boolean;
}

const FULL = LIMITS.uploadMaxPixels;
const SIZE_TABLE: Record<(typeof REMOVEBG_SIZES)[number], Omit<OutputSize, 'name'>> = {
  preview: { priceClass: 'preview', maxPixels: 250_000, asksOverLimit: false },
  small: { priceClass: 'preview', maxPixels: 250_000, asksOverLimit: false },
  regular: { priceClass: 'preview', maxPixels: 250_000, asksOverLimit: false },
  medium: { priceClass: 'medium', maxPixels: 1_500_000, asksOverLimit: false },
  hd: { priceClass: 'hd', maxPixels: 4_000_000, asksOverLimit: false },
  full: { priceClass: 'full', maxPixels: FULL, asksOverLimit: false },
  auto: { priceClass: 'full', maxPixels: FULL, asksOverLimit: false },
  '4k': { priceClass: 'full', maxPixels: FULL, asksOverLimit: false },
  '50mp': { priceClass: 'full', maxPixels: FULL, asksOverLimit: true },
};

/** The size named by the `size` field (default preview, as remove.bg's); undefined for an unknown name. */
export function outputSize(value: string | undefined): OutputSize | undefined {
  const name = (value ?? 'preview').toLowerCase();
  const entry = Object.hasOwn(SIZE_TABLE, name) ? SIZE_TABLE[name as keyof typeof SIZE_TABLE] : undefined;
  return entry && { name, ...entry };
}

/** The price of one call at this size, in tenths of a token. */
export function sizePriceTenths(settings: Pick<Settings, 'removebg_api_prices'>, size: OutputSize): number {
  return tokensToTenths(settings.removebg_api_prices[size.priceClass]);
}

/** The price of the cheapest size, checked against the balance before the body is read. */
export function cheapestSizePriceTenths(settings: Pick<Settings, 'removebg_api_prices'>): number {
  return Math.min(...Object.values(settings.removebg_api_prices).map((price) => tokensToTenths(price)));
}

/** Width and height scaled down (aspect kept) to at most `maxPixels`; the input's own when it fits. */
export function reducedSize(width: number, height: number, maxPixels: number): { width: number; height: number } {
  if (width * height <= maxPixels) return { width, height };
  const scale = Math.sqrt(maxPixels / (width * height));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}
