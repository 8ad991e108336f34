import { CHECKOUT_PHONE_PATTERN, SIMPLE_EMAIL_PATTERN, isValidTokenAmount } from '@imagestudio/contracts';
import type { MessageKey } from '../../../lib/i18n';

/** What the Buy Tokens modal checks, in the order it checks them. */
export interface TopUpCheck {
  /** The top-up choice after the pack > tokens > amount priority; null when nothing usable is chosen. */
  choice: { kind: 'pack' } | { kind: 'tokens'; tokens: number } | { kind: 'amount'; amount: string } | null;
  termsAccepted: boolean;
  /** Total to pay (VAT included, as charged) in minor units; null when it cannot be priced. */
  totalMinor: number | null;
  minTopUpMinor: number;
  paymentType: string | null;
}

/** A blocking error, or the minimum top-up warning (which also blocks, but reads as a warning). */
export interface TopUpProblem {
  level: 'error' | 'warning';
  key: MessageKey;
}

const isValidAmount = (amount: string) =>
  /^\d+(\.\d+)?$/.test(amount.trim()) && Number(amount) > 0 && Number.isFinite(Number(amount));

/**
 * First failure wins: nothing chosen; an amount that is not a number or not above 0;
 * terms not accepted; a total below the minimum top-up (a warning); no payment method.
 */
export function checkTopUp(input: TopUpCheck): TopUpProblem | null {
  const { choice } = input;
  if (!choice) return { level: 'error', key: 'client-payments.errors.nothingChosen' };
  if (
    (choice.kind === 'tokens' && !isValidTokenAmount(choice.tokens)) ||
    (choice.kind === 'amount' && !isValidAmount(choice.amount))
  ) {
    return { level: 'error', key: 'client-payments.errors.invalidAmount' };
  }
  if (!input.termsAccepted) return { level: 'error', key: 'client-payments.errors.acceptTerms' };
  if (input.totalMinor === null) return { level: 'error', key: 'client-payments.errors.invalidAmount' };
  if (input.totalMinor < input.minTopUpMinor) return { level: 'warning', key: 'client-payments.errors.minTopUp' };
  if (!input.paymentType) return { level: 'error', key: 'client-payments.errors.paymentMethod' };
  return null;
}

/** The billing fields of the Confirm Information modal. */
export interface BillingForm {
  name: string;
  surname: string;
  email: string;
  phone: string;
  /** Country id as the select holds it ('' = none). */
  country: string;
  city: string;
  address: string;
  postCode: string;
}

export type BillingField = keyof BillingForm;

export const EMPTY_BILLING: BillingForm = {
  name: '',
  surname: '',
  email: '',
  phone: '',
  country: '',
  city: '',
  address: '',
  postCode: '',
};

/**
 * The checkout rules in form order, one message per field (the first that applies).
 * The email is checked only when the account has none (the account email is used instead).
 */
export function checkBilling(form: BillingForm, hasAccountEmail: boolean): Array<[BillingField, MessageKey]> {
  const problems: Array<[BillingField, MessageKey]> = [];
  const blank = (value: string) => value.trim() === '';
  if (blank(form.name)) problems.push(['name', 'client-payments.errors.firstName']);
  if (blank(form.surname)) problems.push(['surname', 'client-payments.errors.lastName']);
  if (blank(form.phone)) problems.push(['phone', 'client-payments.errors.phoneRequired']);
  else if (!CHECKOUT_PHONE_PATTERN.test(form.phone.trim()))
    problems.push(['phone', 'client-payments.errors.phoneInvalid']);
  if (!hasAccountEmail) {
    if (blank(form.email)) problems.push(['email', 'client-payments.errors.emailRequired']);
    else if (!SIMPLE_EMAIL_PATTERN.test(form.email.trim()))
      problems.push(['email', 'client-payments.errors.emailInvalid']);
  }
  if (blank(form.country)) problems.push(['country', 'client-payments.errors.countryRequired']);
  if (blank(form.city)) problems.push(['city', 'client-payments.errors.cityRequired']);
  if (blank(form.address)) problems.push(['address', 'client-payments.errors.addressRequired']);
  if (blank(form.postCode)) problems.push(['postCode', 'client-payments.errors.postCodeRequired']);
  return problems;
}
