/**
 * Exact decimal arithmetic for money: a decimal is an integer (bigint) scaled by a power of ten.
 * Rates, per-token prices and VAT percentages arrive as decimal strings (Postgres `numeric`) or as short
 * JavaScript numbers; neither is ever multiplied as a float, so no cent is lost to binary rounding.
 */

/** 12.345 is `{ units: 12345n, scale: 3 }`. */
export interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL_PATTERN = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Parses "12.345", 12.345 or "-0.5" exactly; throws on NaN, Infinity, exponents and other text. */
export function parseDecimal(value: number | string): Scaled {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) throw new RangeError(`not a decimal number: ${String(value)}`);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`);
  return { units: match[1] ? -units : units, scale: fraction.length };
}

/** A finite number in plain notation (String(1e-7) is "1e-7"; toFixed keeps its shortest digits). */
function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** Whether `value` parses as a decimal with at most `maxScale` fractional digits. */
export function isDecimal(value: number | string, maxScale = 20): boolean {
  try {
    return parseDecimal(value).scale <= maxScale;
  } catch {
    return false;
  }
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/**
 * Integer division rounding half away from zero ("commercial" rounding: 0.5 cent -> 1 cent,
 * -0.5 -> -1). The one rounding rule used for money in this product.
 */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

/** Re-expresses a decimal at `scale` fractional digits, rounding half away from zero when it shrinks. */
export function rescale(value: Scaled, scale: number): Scaled {
  if (scale >= value.scale) return { units: value.units * pow10(scale - value.scale), scale };
  return { units: divRoundHalfUp(value.units, pow10(value.scale - scale)), scale };
}

/** Writes a decimal with exactly `scale` digits after the point ("12.30"); no point when scale is 0. */
export function formatScaled(value: Scaled): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const int = digits.slice(0, digits.length - value.scale);
  const frac = digits.slice(digits.length - value.scale);
  return `${negative ? '-' : ''}${int}${value.scale > 0 ? `.${frac}` : ''}`;
}

/** The JSON number for a decimal (via its exact text, so 12.345 never prints as 12.344999...). */
export function scaledToNumber(value: Scaled): number {
  return Number(formatScaled(value));
}
