import type { PaymentOutcome } from './deposit-state';
import type { Deposit } from './deposits.repository';
import type { SettleResult } from './fulfilment.service';
import { settle } from './settle';
import type { Payments } from './payments.context';
import type { Stripe } from './stripe.client';

/** The message stored and shown when an asynchronous payment (e.g. a bank debit) fails. */
export const PAYMENT_FAILED = 'Payment failed. Please try again.';

/** The outcome a Checkout Session shows, or null while it is still open. */
export function sessionOutcome(session: Stripe.Checkout.Session): PaymentOutcome | null {
  const paymentIntentId =
    typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (session.status === 'expired') return { kind: 'expired' };
  if (session.status !== 'complete') return null;
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
    return { kind: 'paid', amountMinor: session.amount_total ?? -1, currency: session.currency ?? '', paymentIntentId };
  }
  return { kind: 'processing', paymentIntentId };
}

/** The deposit a Checkout Session was created for (we set both fields at creation). */
export function sessionDepositId(session: Stripe.Checkout.Session): string | null {
  return session.metadata?.deposit_id ?? session.client_reference_id ?? null;
}

/**
 * Asks Stripe for the deposit's Checkout Session and applies what it shows through the one fulfilment
 * function. Used by the return page, the status call and the reconciler when no webhook has arrived.
 */
export async function syncWithStripe(payments: Payments, deposit: Deposit): Promise<SettleResult | null> {
  if (!payments.stripe || !deposit.stripe_session_id) return null;
  const session = await payments.stripe.checkout.sessions.retrieve(deposit.stripe_session_id);
  const outcome = sessionOutcome(session);
  if (!outcome) return null;
  return settle(payments, deposit.id, outcome);
}

/**
 * Ends an abandoned Stripe deposit: expires its session so it can no longer be paid, then applies the
 * session's final state. A session that was paid in the meantime cannot be expired; it is fulfilled.
 */
export async function expireWithStripe(payments: Payments, deposit: Deposit): Promise<SettleResult | null> {
  if (!payments.stripe || !deposit.stripe_session_id) {
    return settle(payments, deposit.id, { kind: 'expired' });
  }
  try {
    const session = await payments.stripe.checkout.sessions.expire(deposit.stripe_session_id);
    return settle(payments, deposit.id, sessionOutcome(session) ?? { kind: 'expired' });
  } catch (err) {
    const { type, statusCode } = err as { type?: string; statusCode?: number };
    if (type !== 'StripeInvalidRequestError') throw err;
    // A session Stripe does not know (deleted test data, another account) can never be paid.
    if (statusCode === 404) return settle(payments, deposit.id, { kind: 'expired' });
    // Stripe refuses to expire a session that is no longer open: read its real state instead.
    return syncWithStripe(payments, deposit);
  }
}
