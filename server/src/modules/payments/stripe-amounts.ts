import { currencyDecimals } from '@imagestudio/contracts';

/**
 * Stripe's minimum charge per currency in minor units (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts).
 * Other currencies must be worth at least about 0.50 USD after conversion; for those, 50 minor units of
 * a two-decimal currency, 50 whole units of a zero-decimal one and 0.200 of a three-decimal one.
 */
const MINIMUM_MINOR: Record<string, number> = {
  USD: 50,
  EUR: 50,
  GBP: 30,
  AUD: 50,
  BRL: 50,
  CAD: 50,
  CHF: 50,
  DKK: 250,
  HKD: 400,
  INR: 50,
  JPY: 50,
  MXN: 1000,
  MYR: 200,
  NOK: 300,
  NZD: 50,
  PLN: 200,
  RON: 200,
  SEK: 300,
  SGD: 50,
  THB: 1000,
  AED: 200,
  BGN: 100,
  CZK: 1500,
  HUF: 17500,
};
const DEFAULT_MINIMUM: Record<0 | 2 | 3, number> = { 0: 50, 2: 50, 3: 200 };

/** The smallest amount Stripe charges in `currency`, in minor units. */
export function stripeMinimumMinor(currency: string): number {
  return MINIMUM_MINOR[currency.toUpperCase()] ?? DEFAULT_MINIMUM[currencyDecimals(currency)];
}
