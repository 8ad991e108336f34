/**
 * Money: currency minor units, conversion from the base currency and price formatting.
 * Shared by the server (charges, receipts) and the client (display), so both round the same way.
 *
 * Rules:
 * - Amounts are kept as integers of the currency's minor unit: 0, 2 or 3 decimals (currencyDecimals in
 *   currency.ts, which also holds formatPrice).
 * - The base currency (catalog prices) is EUR; a currency's `value` is how many of its units buy 1 EUR.
 * - Every rounding is half away from zero, once, at the end of an exact computation (decimal.ts).
 */
import { roundToCharge } from './charge';
import { currencyDecimals } from './currency';
import { formatScaled, parseDecimal, pow10, rescale, scaledToNumber } from './decimal';

/** The currency the catalog stores its prices in. */
export const BASE_CURRENCY = 'EUR';

/** Converts an amount in major units (12.345 or "12.345") to integer minor units, rounding half up. */
export function toMinorUnits(amount: number | string, code: string): number {
  return Number(rescale(parseDecimal(amount), currencyDecimals(code)).units);
}

/** Converts integer minor units to the major-unit number sent in JSON (1234 EUR -> 12.34). */
export function fromMinorUnits(minor: number | bigint, code: string): number {
  return scaledToNumber({ units: BigInt(minor), scale: currencyDecimals(code) });
}

/**
 * Converts an amount in base-currency (EUR) minor units into `code` at `rate` (units of `code` per EUR),
 * exactly, rounded once to the target's charge step (charge.ts).
 */
export function convertFromBase(baseMinor: number | bigint, rate: number | string, code: string): number {
  const r = parseDecimal(rate);
  const numerator = BigInt(baseMinor) * r.units * pow10(currencyDecimals(code));
  const denominator = pow10(currencyDecimals(BASE_CURRENCY) + r.scale);
  return roundToCharge(numerator, denominator, code);
}

/** A price (per token, or a rate) converted at `rate` and kept to `scale` decimals, as decimal text. */
export function convertDecimal(value: number | string, rate: number | string, scale: number): string {
  const v = parseDecimal(value);
  const r = parseDecimal(rate);
  return formatScaled(rescale({ units: v.units * r.units, scale: v.scale + r.scale }, scale));
}

/**
 * Formats a price per token with `decimals` decimals (perTokenDecimals in pricing.ts picks them) in the reader's
 * number style; symbol and amount when Intl refuses the code.
 */
export function formatPricePerToken(
  price: number | null | undefined,
  code: string,
  decimals: number,
  symbol?: string,
  locale = 'en-US',
): string {
  if (!price) return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals }).format(0);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code.toUpperCase(),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(price);
  } catch {
    return `${symbol ?? code}${formatScaled(rescale(parseDecimal(price), decimals))}`;
  }
}
