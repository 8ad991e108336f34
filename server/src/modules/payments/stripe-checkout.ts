import { CHECKOUT_MESSAGES, tenthsToTokens } from '@imagestudio/contracts';
import { serviceUnavailable } from '../../lib/errors';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import type { Payments } from './payments.context';
import type { Stripe } from './stripe.client';

/** What the customer sees on Stripe's page for a deposit. */
export function depositTitle(deposit: Pick<Deposit, 'pack_title' | 'tokens_tenths'>): string {
  return deposit.pack_title ?? `${tenthsToTokens(deposit.tokens_tenths)} tokens`;
}

/**
 * Opens the Stripe Checkout Session of a deposit and stores its id and URL. The idempotency key is the
 * deposit's, and the parameters depend only on the deposit, so the SDK's retries after a timeout (and
 * any later call for the same deposit) get the same session back from Stripe: one session per deposit.
 * When Stripe cannot be reached the deposit ends as Error and the customer gets a 503 'Checkout failed'.
 */
export async function openCheckoutSession(
  payments: Payments,
  stripe: Stripe,
  deposit: Deposit,
): Promise<Stripe.Checkout.Session> {
  const appUrl = payments.ctx.config.APP_URL;
  const vat = Number(deposit.vat_percent) > 0 ? ` (incl. ${Number(deposit.vat_percent)}% VAT)` : '';
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'payment',
    client_reference_id: deposit.id,
    metadata: { deposit_id: deposit.id },
    payment_intent_data: { metadata: { deposit_id: deposit.id } },
    customer_email: deposit.billing.email,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: deposit.currency.toLowerCase(),
          unit_amount: deposit.amount_minor,
          product_data: {
            name: depositTitle(deposit),
            description: `${tenthsToTokens(deposit.tokens_tenths)} tokens${vat}`,
          },
        },
      },
    ],
    ...(deposit.payment_method_code === 'card' && { payment_method_types: ['card'] }),
    success_url: `${appUrl}/api/deposit/stripe-return?order=${deposit.id}`,
    cancel_url: `${appUrl}/cancelled-payment?order=${deposit.id}`,
  };
  try {
    const session = await stripe.checkout.sessions.create(params, { idempotencyKey: `deposit:${deposit.id}:session` });
    await repo.updateDeposit(payments.ctx.db, deposit.id, { stripe_session_id: session.id, checkout_url: session.url });
    return session;
  } catch (err) {
    payments.logger.error({ err, depositId: deposit.id }, 'could not open a Stripe Checkout Session');
    await repo.updateDeposit(payments.ctx.db, deposit.id, {
      status: 'Error',
      error: CHECKOUT_MESSAGES.checkoutFailed,
      completed_at: new Date(),
    });
    throw serviceUnavailable(CHECKOUT_MESSAGES.checkoutFailed);
  }
}
