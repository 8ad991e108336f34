/**
 * A price per token in US English currency style with a fixed number of decimals, whatever the
 * currency's own decimals (2 in the tier list, 3 for the pricing page's starting price). Falls back to the
 * symbol followed by the amount when the platform cannot format the code.
 */
export function formatUnitPrice(price: number, code: string, symbol: string, decimals: 2 | 3): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(price);
  } catch {
    return `${symbol}${price.toFixed(decimals)}`;
  }
}
