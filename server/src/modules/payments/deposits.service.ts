import { fromMinorUnits, tenthsToTokens, type DepositStatusView } from '@imagestudio/contracts';
import { notFound } from '../../lib/errors';
import { isTerminal } from './deposit-state';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import { isUuid } from '../../lib/ids';
import type { Payments } from './payments.context';
import { syncWithStripe } from './stripe-sync.service';
import { failCode } from './fail-codes';

/** Seconds between two Stripe re-checks of one open deposit triggered by status polling. */
export const RECHECK_INTERVAL_S = 30;

export function presentStatus(deposit: Deposit): DepositStatusView {
  return {
    id: deposit.id,
    status: deposit.status,
    tokens: tenthsToTokens(deposit.tokens_tenths),
    pack_id: deposit.pack_id,
    amount: fromMinorUnits(deposit.amount_minor, deposit.currency),
    currency: deposit.currency,
    created_at: new Date(deposit.created_at).toISOString(),
  };
}

/** The owner's deposit; another user's, a random or a malformed id all give the same 404. */
export async function findOwnDeposit(payments: Payments, userId: string, depositId: string): Promise<Deposit> {
  const deposit = isUuid(depositId) ? await repo.findUserDeposit(payments.ctx.db, userId, depositId) : null;
  if (!deposit) throw notFound('Deposit not found.');
  return deposit;
}

/**
 * GET /api/deposit/status/{id}. While the deposit is open, asks Stripe at most once per 30 s (a Redis
 * key per deposit shared by every API process), so a missed webhook does not leave it Pending.
 */
export async function depositStatus(payments: Payments, userId: string, depositId: string): Promise<DepositStatusView> {
  let deposit = await findOwnDeposit(payments, userId, depositId);
  if (!isTerminal(deposit.status) && deposit.provider === 'stripe' && payments.stripe) {
    const claimed = await payments.ctx.redis.set(`pay:recheck:${deposit.id}`, '1', {
      condition: 'NX',
      expiration: { type: 'EX', value: RECHECK_INTERVAL_S },
    });
    if (claimed === 'OK') {
      try {
        await syncWithStripe(payments, deposit);
        deposit = (await repo.findDeposit(payments.ctx.db, deposit.id)) ?? deposit;
      } catch (err) {
        // The status call still answers with what we know; the webhook or the reconciler will catch up.
        payments.logger.warn({ err, depositId: deposit.id }, 'Stripe re-check failed');
      }
    }
  }
  return presentStatus(deposit);
}

/** The client page for a deposit's state (/success-payment, /fail-payment, /pending-payment), as a relative URL. */
export function resultPage(deposit: Deposit): string {
  const order = encodeURIComponent(deposit.id);
  switch (deposit.status) {
    case 'Success':
      return `/success-payment?order=${order}`;
    case 'Error':
      return `/fail-payment?order=${order}&error=${failCode(deposit.error)}`;
    case 'Cancelled':
      // not a failure: the customer stopped it and nothing was charged
      return `/cancelled-payment?order=${order}`;
    case 'Expired':
      return `/cancelled-payment?order=${order}&expired=1`;
    default:
      return `/processing-payment?order_id=${order}`;
  }
}

/**
 * Stripe's success_url lands here: apply what the session shows (the webhook may not have arrived
 * yet; both go through the one fulfilment function), then send the browser to the result page.
 */
export async function returnFromStripe(payments: Payments, depositId: string): Promise<string> {
  const deposit = isUuid(depositId) ? await repo.findDeposit(payments.ctx.db, depositId) : null;
  if (!deposit) throw notFound('Deposit not found.');
  if (!isTerminal(deposit.status)) {
    try {
      await syncWithStripe(payments, deposit);
    } catch (err) {
      payments.logger.warn({ err, depositId }, 'Stripe check on return failed; the webhook will settle it');
    }
  }
  return resultPage((await repo.findDeposit(payments.ctx.db, depositId)) ?? deposit);
}

/** GET /api/deposit/redirect: the open Checkout Session's URL, or the result page once it is settled. */
export async function checkoutRedirect(payments: Payments, userId: string, depositId: string): Promise<string> {
  const deposit = await findOwnDeposit(payments, userId, depositId);
  if (deposit.status === 'Pending' && deposit.checkout_url) return deposit.checkout_url;
  return resultPage(deposit);
}
