import Stripe from 'stripe';
import { AppError, serviceUnavailable } from '../../lib/errors';
import { isUuid } from '../../lib/ids';
import { sendRefundMail } from './payment-mail';
import { settle } from './settle';
import type { Payments } from './payments.context';
import { reverseRefund } from './refunds.service';
import { PAYMENT_FAILED, sessionDepositId, sessionOutcome } from './stripe-sync.service';
import type { PaymentOutcome } from './deposit-state';

/** Seconds a signature timestamp may lie in the future (clock skew); constructEvent only bounds the past. */
export const FUTURE_TOLERANCE_S = 300;

const invalidSignature = () => new AppError('bad_request', 'Invalid webhook signature.');

/**
 * Verifies a webhook delivery: the HMAC over the exact raw bytes with Stripe's default tolerance for
 * old timestamps, plus a bound on timestamps in the future, which constructEvent does not check.
 */
export function verifyWebhook(
  rawBody: Buffer,
  header: string | undefined,
  secret: string | undefined,
  nowMs = Date.now(),
): Stripe.Event {
  if (!secret) throw serviceUnavailable('Payments are not configured.');
  if (!header || !Buffer.isBuffer(rawBody) || rawBody.length === 0) throw invalidSignature();
  const timestamp = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
  if (!Number.isFinite(timestamp) || timestamp > Math.floor(nowMs / 1000) + FUTURE_TOLERANCE_S)
    throw invalidSignature();
  try {
    return Stripe.webhooks.constructEvent(rawBody, header, secret);
  } catch {
    throw invalidSignature();
  }
}

export type WebhookResult = 'handled' | 'duplicate' | 'ignored';

/** What each Checkout Session event means for its deposit (null: the event type is not ours). */
function checkoutOutcome(event: Stripe.Event, session: Stripe.Checkout.Session): PaymentOutcome | null {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionOutcome(session);
    case 'checkout.session.async_payment_failed':
      return { kind: 'failed', error: PAYMENT_FAILED };
    case 'checkout.session.expired':
      return { kind: 'expired' };
    default:
      return null;
  }
}

/** Applies one verified event; idempotent per event id (a redelivery returns 'duplicate'). */
export async function handleWebhookEvent(payments: Payments, event: Stripe.Event): Promise<WebhookResult> {
  const { db } = payments.ctx;
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    const paymentIntent =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
    const refund = { payment_intent: paymentIntent, amount: charge.amount, amount_refunded: charge.amount_refunded };
    const result = await reverseRefund(db, refund, { id: event.id, type: event.type }, payments.logger);
    if (result.depositId && result.refundedMinor > 0)
      await sendRefundMail(payments, result.depositId, result.refundedMinor);
    return result.duplicate ? 'duplicate' : result.depositId ? 'handled' : 'ignored';
  }
  if (!event.type.startsWith('checkout.session.')) return 'ignored';
  const session = event.data.object as Stripe.Checkout.Session;
  const depositId = sessionDepositId(session);
  const outcome = checkoutOutcome(event, session);
  // Sessions of other integrations on the same Stripe account are not ours to judge.
  if (!outcome || !depositId || !isUuid(depositId)) return 'ignored';
  const result = await settle(payments, depositId, outcome, { id: event.id, type: event.type });
  if (result.status === null) return 'ignored';
  return result.duplicate ? 'duplicate' : 'handled';
}
