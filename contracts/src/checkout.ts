import { parseMoneyAmount, parseTokenAmount } from './pricing';

/**
 * The checkout call (POST /api/deposit/checkout): billing fields with their
 * user-facing messages, and the top-up choice (pack, then tokens, then amount). The server applies these;
 * the client may reuse them for its own checks. The billing schema is in checkout-billing.ts, so this module
 * (used by the browser bundle) stays free of zod.
 */
export const CHECKOUT_MESSAGES = {
  nothingChosen: 'Please enter a valid amount, select a pack, or specify tokens',
  invalidAmount: 'Please enter a valid amount',
  minTopUp: (n: string) => `Minimum top-up amount: ${n}`,
  paymentMethod: 'Please select a payment method',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Invalid phone format (e.g. +1234567890)',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  countryRequired: 'Country is required',
  cityRequired: 'City is required',
  addressRequired: 'Address is required',
  postCodeRequired: 'Postal code is required',
  invalidCurrency: 'Invalid currency code',
  packUnavailable: 'The selected pack is not available',
  freePack: 'Free packs cannot be bought',
  belowCardMinimum: (n: string) => `The smallest card payment is ${n}`,
  checkoutFailed: 'Checkout failed',
} as const;

/** A checkout phone number: an optional plus, then 8 to 15 digits and spaces. */
export const CHECKOUT_PHONE_PATTERN = /^\+?[\d ]{8,15}$/;
/** A simple email shape (something@something.tld, no spaces); the account email is checked properly. */
export const SIMPLE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const m = CHECKOUT_MESSAGES;

/** What the customer chose to buy: a pack, else tokens, else an amount. */
export type TopUpChoice =
  { kind: 'pack'; packId: number } | { kind: 'tokens'; tokens: number } | { kind: 'amount'; amount: string };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Picks the top-up choice: pack_id, then tokens, then amount (the first one given wins). Returns the
 * field and message to show when nothing usable was sent. `amount` stays decimal text.
 */
export function parseTopUpChoice(input: {
  pack_id?: unknown;
  tokens?: unknown;
  amount?: unknown;
}): TopUpChoice | { field: string; message: string } {
  if (!isBlank(input.pack_id)) {
    const id = Number(input.pack_id);
    return Number.isInteger(id) && id > 0
      ? { kind: 'pack', packId: id }
      : { field: 'pack_id', message: m.packUnavailable };
  }
  if (!isBlank(input.tokens)) {
    const tokens = parseTokenAmount(input.tokens);
    return tokens !== null ? { kind: 'tokens', tokens } : { field: 'tokens', message: m.invalidAmount };
  }
  if (!isBlank(input.amount)) {
    const amount = parseMoneyAmount(input.amount);
    return amount !== null ? { kind: 'amount', amount } : { field: 'amount', message: m.invalidAmount };
  }
  return { field: 'amount', message: m.nothingChosen };
}
