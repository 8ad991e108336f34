/**
 * Currency rules (docs/money.md#money-amounts), shared by the API (minor units) and the client (price display).
 */

const ZERO_DECIMALS = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Number and money style per catalogue language code; other codes are used as the Intl locale themselves. */
const LANGUAGE_LOCALES: Record<string, string> = { en: 'en-US', de: 'de-DE' };

/**
 * The Intl locale for a catalogue language code ("de" -> "de-DE"), so the client's pages and the server's
 * emails and receipts write numbers and money the same way; one Intl cannot use falls back to US English.
 */
export function localeFor(languageCode: string | null | undefined): string {
  const locale = LANGUAGE_LOCALES[languageCode ?? ''] ?? languageCode ?? 'en-US';
  try {
    new Intl.NumberFormat(locale);
    return locale;
  } catch {
    return 'en-US';
  }
}

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
 * Formats a price in the reader's number style (`locale`, US English by default: "$1,234.50"; German
 * "1.234,50 €") with the currency's decimals; a falsy amount shows "0.00", and a code the platform cannot
 * format shows the symbol followed by the amount.
 */
export function formatPrice(amount: number | null | undefined, code: string, symbol = '', locale = 'en-US'): string {
  if (!amount) return new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(0);
  return formatMoney(amount, code, symbol, locale);
}

/** formatPrice without the bare "0.00": a zero amount keeps its currency too ("€0.00"), as a receipt line needs. */
export function formatMoney(amount: number, code: string, symbol = '', locale = 'en-US'): string {
  const digits = currencyDecimals(code);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    return `${symbol}${amount.toFixed(digits)}`;
  }
}
