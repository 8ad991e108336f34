import { currencyDecimals } from './currency';
import { divRoundHalfUp } from './decimal';

/**
 * The smallest amount a card payment can carry in `currency`, in its minor units. Card processors take
 * three-decimal currencies (KWD, BHD, ...) only in multiples of 10 of the minor unit (Stripe refuses
 * 1.235 KWD), so for those every price is computed to 0.010; every other currency to its minor unit.
 */
export function chargeStepMinor(currency: string): number {
  return currencyDecimals(currency) === 3 ? 10 : 1;
}

/**
 * The one money rounding of the product: the exact value numerator / denominator (in minor units of
 * `currency`) rounded half away from zero to the currency's charge step (chargeStepMinor). Prices,
 * VAT and converted pack prices all go through it once, so a quote is already what the card is charged.
 */
export function roundToCharge(numerator: bigint, denominator: bigint, currency: string): number {
  const step = BigInt(chargeStepMinor(currency));
  return Number(divRoundHalfUp(numerator, denominator * step) * step);
}
