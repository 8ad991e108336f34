import {
  BASE_CURRENCY,
  CHECKOUT_MESSAGES as M,
  convertFromBase,
  currencyDecimals,
  formatPrice,
  fromMinorUnits,
  LIMITS,
  parseDecimal,
  pow10,
  toMinorUnits,
  type ExactQuote,
  type TopUpChoice,
} from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import type { CheckoutCatalog, CheckoutPack } from './catalog-lookup';
import { stripeMinimumMinor } from './stripe-amounts';

export interface PricedTopUp {
  quote: ExactQuote;
  pack: CheckoutPack | null;
}

export interface QuoteInputs {
  choice: TopUpChoice;
  currency: { code: string; value: string };
  /** Minimum top-up in EUR (settings.min_top_up). */
  minTopUp: number;
  catalog: CheckoutCatalog;
  /** Whether Stripe will charge it (its minimum charge applies); the test checkout has none. */
  viaStripe: boolean;
}

/**
 * Prices a top-up on the server with the catalog's one pricing function (VAT added); nothing the
 * client sends about prices is used. Refuses, with the checkout messages of contracts, unknown and free packs, totals
 * below the minimum top-up and amounts below Stripe's minimum charge.
 */
export async function priceTopUp(input: QuoteInputs): Promise<PricedTopUp> {
  const { choice, catalog } = input;
  const code = input.currency.code;
  let quote: ExactQuote;
  let pack: CheckoutPack | null = null;
  if (choice.kind === 'pack') {
    const found = await catalog.quotePack(choice.packId, code);
    if (!found) throw validationError({ pack_id: [M.packUnavailable] });
    // Free packs are never bought: a zero charge must not reach Stripe.
    if (found.pack.price_cents <= 0) throw validationError({ pack_id: [M.freePack] });
    ({ pack, quote } = found);
  } else if (choice.kind === 'tokens') {
    quote = await catalog.quoteTokens(choice.tokens, code);
  } else {
    // More digits than the currency has (10.001 EUR, 1000.5 JPY) is refused rather than rounded to a price
    // the customer did not type; trailing zeros (10.000) are the same amount and pass.
    const typed = parseDecimal(choice.amount);
    const extra = typed.scale - currencyDecimals(code);
    if (extra > 0 && typed.units % pow10(extra) !== 0n) throw validationError({ amount: [M.invalidAmount] });
    const amountMinor = toMinorUnits(choice.amount, code);
    const tenths = await catalog.tenthsForAmount(amountMinor, code);
    if (tenths === 0) throw validationError({ amount: [minTopUpMessage(input)] });
    // The pricing never buys more than the largest token amount: an amount beyond its price is refused
    // rather than silently charged as that largest amount.
    if (
      tenths === Math.round(LIMITS.tokensMax * 10) &&
      amountMinor > (await catalog.quoteTokens(LIMITS.tokensMax, code)).subtotalMinor
    ) {
      throw validationError({ amount: [M.invalidAmount] });
    }
    quote = await catalog.quoteTokens(tenths / 10, code);
  }

  // The quote's total is what is charged: the pricing function already rounds to what a card can carry.
  const chargeMinor = quote.totalMinor;
  if (chargeMinor < minTopUpMinor(input)) throw validationError({ amount: [minTopUpMessage(input)] });
  const stripeMinimum = stripeMinimumMinor(code);
  if (input.viaStripe && chargeMinor < stripeMinimum) {
    throw validationError({ amount: [M.belowCardMinimum(formatPrice(fromMinorUnits(stripeMinimum, code), code))] });
  }
  return { quote, pack };
}

/** min_top_up (EUR) x the currency's value, in the currency's minor units. */
function minTopUpMinor(input: QuoteInputs): number {
  return convertFromBase(toMinorUnits(input.minTopUp, BASE_CURRENCY), input.currency.value, input.currency.code);
}

function minTopUpMessage(input: QuoteInputs): string {
  const code = input.currency.code;
  return M.minTopUp(formatPrice(fromMinorUnits(minTopUpMinor(input), code), code));
}
