/**
 * The one pricing function of the product: what N tokens (or a pack) cost in a currency, VAT included.
 * The server quotes and charges with it; the client shows prices with it; so a quote is exactly the sum
 * the customer is later charged.
 *
 * Rules (every rounding is roundToCharge of charge.ts: half away from zero, once per amount, to the
 * currency's charge step: its minor unit, or 0.010 for three-decimal currencies, which cards only take
 * in multiples of 10 of the minor unit):
 * 1. Tier prices are stored per token in the base currency (EUR). Converted to a currency, the price per
 *    token is `eurPrice x rate` kept to UNIT_PRICE_DECIMALS (4) decimals: this is the `price` of a tier
 *    in `GET /api/token-pricing?currency=`, and the price every total is computed from.
 * 2. Volume pricing: the tier that contains N sets the price of all N tokens, but more tokens never cost
 *    less: the subtotal is the lower of "N x its tier's price" and, for every higher tier, "that tier's
 *    minimum x its price" (482 tokens cost what 500 do when that is cheaper).
 * 3. Each of those products is rounded to the charge step; the subtotal is the lowest of them.
 * 4. vat = subtotal x vatPercent / 100, rounded to the charge step; total = subtotal + vat.
 * 5. `pricePerToken` in a quote is subtotal / N kept to UNIT_PRICE_DECIMALS, for display only; it is
 *    shown with perTokenDecimals decimals, nothing is computed from it.
 * 6. Packs have a fixed EUR price in cents, converted with convertFromBase (rounded to the charge step);
 *    VAT is then added as in rule 4.
 */
import type { z } from 'zod';
import type { priceTierSchema, quoteSchema } from './catalog-schemas';
import { roundToCharge } from './charge';
import { divRoundHalfUp, formatScaled, isDecimal, parseDecimal, pow10, rescale, scaledToNumber } from './decimal';
import { LIMITS } from './constants';
import { currencyDecimals } from './currency';
import { convertDecimal, fromMinorUnits } from './money';

/** Decimals kept for a per-token price once converted into a currency (rule 1). */
export const UNIT_PRICE_DECIMALS = 4;
/** The fewest decimals a per-token price is shown with in a currency that has fractions. */
const MIN_PER_TOKEN_DECIMALS = 2;

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
export type PriceTier = z.infer<typeof priceTierSchema>;

/** A tier as stored: price per token in the base currency as exact decimal text or number. */
export interface BaseTier {
  min: number;
  max: number | null;
  price: number | string;
}

/** The quote of `GET /api/token-pricing/quote`; money in major units of `currency`. */
export type Quote = z.infer<typeof quoteSchema>;

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
  return tiers.map((t) => ({
    min: t.min,
    max: t.max,
    price: Number(convertDecimal(t.price, rate, UNIT_PRICE_DECIMALS)),
  }));
}

/** The tier containing `tenths` tenths of a token, if any. */
export function tierFor<T extends { min: number; max: number | null }>(tiers: T[], tenths: number): T | undefined {
  return tiers.find((t) => tenths >= Math.round(t.min * 10) && (t.max === null || tenths <= Math.round(t.max * 10)));
}

/** VAT in minor units of `code` on a subtotal in minor units (rule 4). */
export function vatMinorUnits(subtotalMinor: number, vatPercent: number | string, code: string): number {
  const p = parseDecimal(vatPercent);
  return roundToCharge(BigInt(subtotalMinor) * p.units, 100n * pow10(p.scale), code);
}

/** `tenths` tenths of a token at a unit price, in minor units of `code` (rule 3). */
function productMinorUnits(tenths: number, unitPrice: number | string, code: string): number {
  const u = parseDecimal(unitPrice);
  return roundToCharge(BigInt(tenths) * u.units * pow10(currencyDecimals(code)), 10n * pow10(u.scale), code);
}

/**
 * The subtotal of `tenths` tenths of a token in minor units of the tiers' currency (rules 2 and 3):
 * never more than the price of any higher tier's minimum, so the total never falls as N grows.
 * Throws RangeError when no tier covers the amount.
 */
export function subtotalMinorUnits(tenths: number, tiers: PriceTier[], code: string): number {
  const tier = tierFor(tiers, tenths);
  if (!tier) throw new RangeError(`no price tier covers ${tenths / 10} tokens`);
  const index = tiers.indexOf(tier);
  let best = productMinorUnits(tenths, tier.price, code);
  for (const higher of tiers.slice(index + 1))
    best = Math.min(best, productMinorUnits(Math.round(higher.min * 10), higher.price, code));
  return best;
}

function buildQuote(tenths: number, subtotalMinor: number, code: string, vatPercent: number | string): ExactQuote {
  const vatMinor = vatMinorUnits(subtotalMinor, vatPercent, code);
  const totalMinor = subtotalMinor + vatMinor;
  const decimals = currencyDecimals(code);
  // subtotal / N in major units: subtotalMinor * 10 / (tenths * 10^decimals)
  const perToken =
    tenths > 0
      ? {
          units: divRoundHalfUp(
            BigInt(subtotalMinor) * 10n * pow10(UNIT_PRICE_DECIMALS),
            BigInt(tenths) * pow10(decimals),
          ),
          scale: UNIT_PRICE_DECIMALS,
        }
      : { units: 0n, scale: 0 };
  return {
    tokens: tenths / 10,
    pricePerToken: scaledToNumber(perToken),
    subtotal: fromMinorUnits(subtotalMinor, code),
    vatPercent: scaledToNumber(parseDecimal(vatPercent)),
    vat: fromMinorUnits(vatMinor, code),
    total: fromMinorUnits(totalMinor, code),
    currency: code,
    tenths,
    decimals,
    subtotalMinor,
    vatMinor,
    totalMinor,
  };
}

/**
 * Quotes `tokens` (0.1..2000, step 0.1) with tiers already in `currency` (convertTiers, or the reply of
 * GET /api/token-pricing). Throws RangeError for an invalid amount or when no tier covers it.
 */
export function quoteTokens(input: {
  tokens: number;
  tiers: PriceTier[];
  currency: string;
  vatPercent: number | string;
}): ExactQuote {
  if (!isValidTokenAmount(input.tokens)) throw new RangeError(`invalid token amount: ${input.tokens}`);
  const tenths = Math.round(input.tokens * 10);
  return buildQuote(tenths, subtotalMinorUnits(tenths, input.tiers, input.currency), input.currency, input.vatPercent);
}

/**
 * Quotes a pack: its price already converted to `currency` minor units (convertFromBase), plus VAT.
 * pricePerToken is the price divided by the pack's tokens, for display.
 */
export function quotePack(input: {
  priceMinor: number;
  credits: number;
  currency: string;
  vatPercent: number | string;
}): ExactQuote {
  return buildQuote(Math.round(input.credits * 10), input.priceMinor, input.currency, input.vatPercent);
}

/**
 * What a pack saves against buying its tokens as a custom amount, in minor units before VAT (0 when the
 * pack is free, not cheaper, or larger than a custom amount can be).
 */
export function packSavingMinor(input: {
  priceMinor: number;
  credits: number;
  tiers: PriceTier[];
  currency: string;
}): number {
  const tenths = Math.round(input.credits * 10);
  // a free pack is a gift, not a saving
  if (input.priceMinor <= 0 || !isValidTokenAmount(tenths / 10)) return 0;
  try {
    return Math.max(0, subtotalMinorUnits(tenths, input.tiers, input.currency) - input.priceMinor);
  } catch {
    return 0;
  }
}

/**
 * How many tenths of a token an amount (minor units, before VAT) buys: the most N whose subtotal is
 * <= the amount (0 when even 0.1 token costs more). The subtotal never falls as N grows (rule 2), so a
 * binary search over 0.1..2000 finds it.
 */
export function tenthsForAmount(input: { amountMinor: number; tiers: PriceTier[]; currency: string }): number {
  return lastTenthsWhere((tenths) => subtotalMinorUnits(tenths, input.tiers, input.currency) <= input.amountMinor);
}

/**
 * The fewest tenths of a token whose total (VAT included) reaches `minTotalMinor`, the minimum top-up:
 * the smallest amount a customer can actually buy (2000 tokens when nothing reaches it).
 */
export function minimumPurchaseTenths(input: {
  minTotalMinor: number;
  tiers: PriceTier[];
  currency: string;
  vatPercent: number | string;
}): number {
  const total = (tenths: number) => {
    const subtotal = subtotalMinorUnits(tenths, input.tiers, input.currency);
    return subtotal + vatMinorUnits(subtotal, input.vatPercent, input.currency);
  };
  return Math.min(
    Math.round(LIMITS.tokensMax * 10),
    lastTenthsWhere((tenths) => total(tenths) < input.minTotalMinor) + 1,
  );
}

/** The largest tenths in 1..2000 tokens for which `holds` is true, 0 if none; `holds` must go true -> false once. */
function lastTenthsWhere(holds: (tenths: number) => boolean): number {
  let lo = 0;
  let hi = Math.round(LIMITS.tokensMax * 10);
  if (holds(hi)) return hi;
  // invariant: holds(lo) (or lo = 0), !holds(hi)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The decimals a per-token price is shown with in `code`: none for a zero-decimal currency (no yen
 * fractions), else the fewest from 2 (or the currency's own) up to UNIT_PRICE_DECIMALS at which no two
 * tiers show the same price.
 */
export function perTokenDecimals(tiers: PriceTier[], code: string): number {
  const own = currencyDecimals(code);
  if (own === 0) return 0;
  for (let d = Math.max(own, MIN_PER_TOKEN_DECIMALS); d < UNIT_PRICE_DECIMALS; d++) {
    const shown = new Set(tiers.map((t) => formatScaled(rescale(parseDecimal(t.price), d))));
    if (shown.size === tiers.length) return d;
  }
  return UNIT_PRICE_DECIMALS;
}

/** Problems with a tier table (empty when valid): contiguous from 0.1, open-ended last, prices falling. */
export function validateTiers(tiers: BaseTier[]): string[] {
  const problems: string[] = [];
  if (tiers.length === 0) return ['at least one tier is required'];
  if (Math.round((tiers[0]?.min ?? 0) * 10) !== Math.round(LIMITS.tokensMin * 10))
    problems.push(`the first tier must start at ${LIMITS.tokensMin}`);
  tiers.forEach((t, i) => {
    if (!isDecimal(t.min, 1) || (t.max !== null && !isDecimal(t.max, 1)))
      problems.push(`tier ${i + 1}: bounds must be multiples of 0.1`);
    if (!isDecimal(t.price, 6) || parseDecimal(t.price).units <= 0n)
      problems.push(`tier ${i + 1}: price must be a positive decimal with at most 6 decimals`);
    if (t.max !== null && t.max < t.min) problems.push(`tier ${i + 1}: max is below min`);
    const next = tiers[i + 1];
    if (!next) {
      if (t.max !== null) problems.push('the last tier must be open ended (max null)');
      return;
    }
    if (t.max === null || Math.round(t.max * 10) + 1 !== Math.round(next.min * 10))
      problems.push(`tier ${i + 2} must start 0.1 after tier ${i + 1} ends`);
    if (isDecimal(t.price, 6) && isDecimal(next.price, 6) && compare(next.price, t.price) >= 0)
      problems.push(`tier ${i + 2} must be cheaper per token than tier ${i + 1}`);
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
