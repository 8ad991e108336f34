/**
 * The one pricing function of the product: what N tokens (or a pack) cost in a currency, VAT included.
 * The server quotes and charges with it; the client shows prices with it; so a quote is exactly the sum
 * the customer is later charged.
 *
 * Rounding rules (all roundings half away from zero, see decimal.ts):
 * 1. Tier prices are stored per token in the base currency (EUR). Converted to a currency, the price per
 *    token is `eurPrice x rate` kept to UNIT_PRICE_DECIMALS (4) decimals: this is the `price` of a tier
 *    in `GET /api/token-pricing?currency=`, and the price every total is computed from.
 * 2. Volume pricing: the tier that contains N sets the price of all N tokens.
 * 3. subtotal = N x unit price, rounded once to the currency's minor unit (money.ts: 0, 2 or 3 decimals).
 * 4. vat = subtotal x vatPercent / 100, rounded once to the minor unit; total = subtotal + vat.
 * 5. `pricePerToken` in a quote is the unit price rounded to 2 decimals, for display only; nothing is
 *    computed from it.
 * 6. Packs have a fixed EUR price in cents, converted with convertFromBase (one rounding to the minor
 *    unit); VAT is then added as in rule 4.
 */
import { divRoundHalfUp, formatScaled, isDecimal, parseDecimal, pow10, rescale, scaledToNumber } from './decimal';
import { LIMITS } from './constants';
import { currencyDecimals } from './currency';
import { convertDecimal, fromMinorUnits } from './money';

/** Decimals kept for a per-token price once converted into a currency (rule 1). */
export const UNIT_PRICE_DECIMALS = 4;
/** Decimals of `pricePerToken` in a quote (rule 5). */
export const PRICE_PER_TOKEN_DISPLAY_DECIMALS = 2;

/**
 * The tier table the catalog is seeded with (EUR per token), also the client's fallback when the
 * token-pricing call fails.
 */
export const DEFAULT_PRICE_TIERS: readonly BaseTier[] = [
  { min: 0.1, max: 99.9, price: '0.10' },
  { min: 100, max: 499.9, price: '0.09' },
  { min: 500, max: 999.9, price: '0.08' },
  { min: 1000, max: null, price: '0.07' },
];

/** One price tier: token counts `min`..`max` (null = open ended) cost `price` each. */
export interface PriceTier {
  min: number;
  max: number | null;
  price: number;
}

/** A tier as stored: price per token in the base currency as exact decimal text or number. */
export interface BaseTier {
  min: number;
  max: number | null;
  price: number | string;
}

/** The quote of `GET /api/token-pricing/quote`; money in major units of `currency`. */
export interface Quote {
  tokens: number;
  pricePerToken: number;
  subtotal: number;
  vatPercent: number;
  vat: number;
  total: number;
  currency: string;
}

/** A quote plus the exact integers behind it, for charging and storing. */
export interface ExactQuote extends Quote {
  tenths: number;
  decimals: number;
  subtotalMinor: number;
  vatMinor: number;
  totalMinor: number;
}

/** Whether `tokens` is 0.1..2000 in steps of 0.1 (the amounts a customer may buy). */
export function isValidTokenAmount(tokens: unknown): tokens is number {
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || !isDecimal(tokens, 1)) return false;
  return tokens >= LIMITS.tokensMin && tokens <= LIMITS.tokensMax;
}

/** Plain decimal text: digits, optionally a point and digits. No sign, exponent, hex, spaces or "Infinity". */
const PLAIN_DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/**
 * The one reading of a token amount a customer sends (the quote's `tokens` and checkout's `tokens`):
 * a number, or plain decimal text, of 0.1..2000 in steps of 0.1; anything else (such as "1e2") is null.
 */
export function parseTokenAmount(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!PLAIN_DECIMAL.test(text)) return null;
  const tokens = Number(text);
  return isValidTokenAmount(tokens) ? tokens : null;
}

/**
 * The one reading of a money amount a customer sends (checkout's `amount`): a positive number or plain
 * decimal text of at most 12 integer digits, kept as text so it converts to minor units exactly; else
 * null. Whether it buys at most the largest token amount is the pricing's check (out of range is refused,
 * never clamped).
 */
export function parseMoneyAmount(raw: unknown): string | null {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return PLAIN_DECIMAL.test(text) && Number(text) > 0 ? text : null;
}

/** Converts base-currency tiers into `code` at `rate` (rule 1). */
export function convertTiers(tiers: BaseTier[], rate: number | string, code: string): PriceTier[] {
  void code; // the unit price precision is the same for every currency (rule 1)
  return tiers.map((t) => ({ min: t.min, max: t.max, price: Number(convertDecimal(t.price, rate, UNIT_PRICE_DECIMALS)) }));
}

/** The tier containing `tenths` tenths of a token, if any. */
export function tierFor<T extends { min: number; max: number | null }>(tiers: T[], tenths: number): T | undefined {
  return tiers.find((t) => tenths >= Math.round(t.min * 10) && (t.max === null || tenths <= Math.round(t.max * 10)));
}

/** VAT in minor units on a subtotal in minor units (rule 4). */
export function vatMinorUnits(subtotalMinor: number, vatPercent: number | string): number {
  const p = parseDecimal(vatPercent);
  return Number(divRoundHalfUp(BigInt(subtotalMinor) * p.units, 100n * pow10(p.scale)));
}

/** Price of `tenths` tenths of a token at a unit price, in minor units of `code` (rule 3). */
function subtotalMinorUnits(tenths: number, unitPrice: number | string, code: string): number {
  const u = parseDecimal(unitPrice);
  return Number(divRoundHalfUp(BigInt(tenths) * u.units * pow10(currencyDecimals(code)), 10n * pow10(u.scale)));
}

function buildQuote(tenths: number, unitPrice: number | string, subtotalMinor: number, code: string, vatPercent: number | string): ExactQuote {
  const vatMinor = vatMinorUnits(subtotalMinor, vatPercent);
  const totalMinor = subtotalMinor + vatMinor;
  return {
    tokens: tenths / 10,
    pricePerToken: scaledToNumber(rescale(parseDecimal(unitPrice), PRICE_PER_TOKEN_DISPLAY_DECIMALS)),
    subtotal: fromMinorUnits(subtotalMinor, code),
    vatPercent: scaledToNumber(parseDecimal(vatPercent)),
    vat: fromMinorUnits(vatMinor, code),
    total: fromMinorUnits(totalMinor, code),
    currency: code,
    tenths,
    decimals: currencyDecimals(code),
    subtotalMinor,
    vatMinor,
    totalMinor,
  };
}

/**
 * Quotes `tokens` (0.1..2000, step 0.1) with tiers already in `currency` (convertTiers, or the reply of
 * GET /api/token-pricing). Throws RangeError for an invalid amount or when no tier covers it.
 */
export function quoteTokens(input: { tokens: number; tiers: PriceTier[]; currency: string; vatPercent: number | string }): ExactQuote {
  if (!isValidTokenAmount(input.tokens)) throw new RangeError(`invalid token amount: ${input.tokens}`);
  const tenths = Math.round(input.tokens * 10);
  const tier = tierFor(input.tiers, tenths);
  if (!tier) throw new RangeError(`no price tier covers ${input.tokens} tokens`);
  return buildQuote(tenths, tier.price, subtotalMinorUnits(tenths, tier.price, input.currency), input.currency, input.vatPercent);
}

/**
 * Quotes a pack: its price already converted to `currency` minor units (convertFromBase), plus VAT.
 * pricePerToken is the price divided by the pack's tokens, for display.
 */
export function quotePack(input: { priceMinor: number; credits: number; currency: string; vatPercent: number | string }): ExactQuote {
  const tenths = Math.round(input.credits * 10);
  const decimals = currencyDecimals(input.currency);
  // price per token = priceMinor / 10^decimals / (tenths / 10), kept to UNIT_PRICE_DECIMALS
  const unit = tenths > 0
    ? formatScaled({ units: divRoundHalfUp(BigInt(input.priceMinor) * 10n * pow10(UNIT_PRICE_DECIMALS), BigInt(tenths) * pow10(decimals)), scale: UNIT_PRICE_DECIMALS })
    : '0';
  return buildQuote(tenths, unit, input.priceMinor, input.currency, input.vatPercent);
}

/**
 * How many tenths of a token an amount (minor units, before VAT) buys: the most N whose subtotal at its
 * own tier's price is <= the amount (0 when even 0.1 token costs more). Checked per tier, because volume
 * pricing makes the cost jump down at a tier's lower bound.
 */
export function tenthsForAmount(input: { amountMinor: number; tiers: PriceTier[]; currency: string }): number {
  const d = pow10(currencyDecimals(input.currency));
  const maxTenths = Math.round(LIMITS.tokensMax * 10);
  let best = 0;
  for (const tier of input.tiers) {
    const u = parseDecimal(tier.price);
    if (u.units <= 0n) continue;
    // round_half_up(t*u*d / (10*10^s)) <= A  <=>  2*t*u*d < (2A+1)*10*10^s
    const bound = (BigInt(2 * input.amountMinor + 1) * 10n * pow10(u.scale));
    const step = 2n * u.units * d;
    const fit = Number((bound - 1n) / step);
    const lo = Math.round(tier.min * 10);
    const hi = Math.min(tier.max === null ? maxTenths : Math.round(tier.max * 10), maxTenths);
    const t = Math.min(fit, hi);
    if (t >= lo && t > best) best = t;
  }
  return best;
}

/** Problems with a tier table (empty when valid): contiguous from 0.1, open-ended last, prices falling. */
export function validateTiers(tiers: BaseTier[]): string[] {
  const problems: string[] = [];
  if (tiers.length === 0) return ['at least one tier is required'];
  if (Math.round((tiers[0]?.min ?? 0) * 10) !== Math.round(LIMITS.tokensMin * 10)) problems.push(`the first tier must start at ${LIMITS.tokensMin}`);
  tiers.forEach((t, i) => {
    if (!isDecimal(t.min, 1) || (t.max !== null && !isDecimal(t.max, 1))) problems.push(`tier ${i + 1}: bounds must be multiples of 0.1`);
    if (!isDecimal(t.price, 6) || parseDecimal(t.price).units <= 0n) problems.push(`tier ${i + 1}: price must be a positive decimal with at most 6 decimals`);
    if (t.max !== null && t.max < t.min) problems.push(`tier ${i + 1}: max is below min`);
    const next = tiers[i + 1];
    if (!next) {
      if (t.max !== null) problems.push('the last tier must be open ended (max null)');
      return;
    }
    if (t.max === null || Math.round(t.max * 10) + 1 !== Math.round(next.min * 10)) problems.push(`tier ${i + 2} must start 0.1 after tier ${i + 1} ends`);
    if (isDecimal(t.price, 6) && isDecimal(next.price, 6) && compare(next.price, t.price) >= 0) problems.push(`tier ${i + 2} must be cheaper per token than tier ${i + 1}`);
  });
  return problems;
}

function compare(a: number | string, b: number | string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const diff = rescale(x, scale).units - rescale(y, scale).units;
  return diff === 0n ? 0 : diff < 0n ? -1 : 1;
}
