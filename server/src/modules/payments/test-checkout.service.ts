import { notFound } from '../../lib/errors';
import { assertPaymentsAvailable } from './checkout.service';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import { resultPage } from './deposits.service';
import { settle } from './settle';
import { isUuid } from '../../lib/ids';
import type { Payments } from './payments.context';
import { testCheckoutTokenValid } from './test-checkout-token';
import type { TestOutcome } from './test-checkout.page';
import { TEST_DECLINED } from './fail-codes';

/**
 * The test deposit a test-checkout link points at. Exists only without a Stripe key and outside
 * production; a wrong token answers like an unknown deposit.
 */
export async function findTestCheckout(payments: Payments, depositId: string, token: unknown): Promise<Deposit> {
  assertPaymentsAvailable(payments);
  const deposit = isUuid(depositId) ? await repo.findDeposit(payments.ctx.db, depositId) : null;
  if (
    payments.stripe ||
    !deposit ||
    deposit.provider !== 'test' ||
    !testCheckoutTokenValid(payments.ctx.config, depositId, token)
  ) {
    throw notFound('Checkout not found.');
  }
  return deposit;
}

/**
 * Completes a test deposit with the chosen outcome through the same fulfilment code as Stripe's
 * webhook, and returns the client page to show: success, fail with the error, or cancelled (nothing charged).
 */
export async function completeTestCheckout(
  payments: Payments,
  depositId: string,
  token: unknown,
  outcome: TestOutcome,
): Promise<string> {
  const deposit = await findTestCheckout(payments, depositId, token);
  const result =
    outcome === 'paid'
      ? { kind: 'paid' as const, amountMinor: deposit.amount_minor, currency: deposit.currency }
      : outcome === 'declined'
        ? { kind: 'failed' as const, error: TEST_DECLINED }
        : { kind: 'cancelled' as const };
  await settle(payments, deposit.id, result);
  return resultPage((await repo.findDeposit(payments.ctx.db, deposit.id))!);
}
