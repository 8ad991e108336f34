import { numberLocale } from '../../lib/format';

/**
 * A price per token in the active language's currency style with a fixed number of decimals, whatever the
 * currency's own decimals (spec section 9: 2 decimals, the initial price per token 3). Falls back to the
 * symbol followed by the amount when the platform cannot format the code.
 */
export function formatUnitPrice(price: number, code: string, symbol: string, decimals: 2 | 3): string {
  try {
    return new Intl.NumberFormat(numberLocale(), { style: 'currency', currency: code, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(price);
  } catch {
    return `${symbol}${price.toFixed(decimals)}`;
  }
}
