/**
 * Currency rules (docs/money.md#money-amounts), shared by the API (minor units) and the client (price display).
 */

const ZERO_DECIMALS = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** The currency used when none could be loaded. */
export const FALLBACK_CURRENCY = { code: 'EUR', value: 1, symbol: '€', default: 0 } as const;

/** Number of fractional digits a currency is shown and stored with: 0, 2 or 3. */
export function currencyDecimals(code: string): 0 | 2 | 3 {
  const upper = code.toUpperCase();
  if (ZERO_DECIMALS.has(upper)) return 0;
  if (THREE_DECIMALS.has(upper)) return 3;
  return 2;
}

/**
 * Formats a price in US English currency style with the currency's decimals; a falsy amount shows "0.00",
 * and a code the platform cannot format shows the symbol followed by the amount.
 */
export function formatPrice(amount: number | null | undefined, code: string, symbol = ''): string {
  if (!amount) return '0.00';
  const digits = currencyDecimals(code);
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    return `${symbol}${amount.toFixed(digits)}`;
  }
}
