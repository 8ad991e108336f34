import { currencyDecimals } from './currency';

/**
 * What a card payment of `totalMinor` actually charges, in minor units: card processors take
 * three-decimal currencies (KWD, BHD, ...) only in multiples of 10 of the minor unit, so those totals are
 * rounded half up to a multiple of 10 (1.235 KWD -> 1.240); every other currency is charged as quoted.
 * The client shows this amount as "Total to pay", so the customer sees exactly what is charged.
 */
export function chargeableMinor(totalMinor: number, currency: string): number {
  if (currencyDecimals(currency) !== 3) return totalMinor;
  return Math.floor((totalMinor + 5) / 10) * 10;
}
