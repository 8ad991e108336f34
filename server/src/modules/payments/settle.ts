import type { PaymentOutcome } from './deposit-state';
import { settleDeposit, type SettleResult } from './fulfilment.service';
import { sendPaidMail } from './payment-mail';
import type { Payments } from './payments.context';

/**
 * settleDeposit for the app's payment paths (webhooks, return page, status checks, reconciler, test
 * checkout): the same one fulfilment, then the confirmation email when this call is the one that made
 * the deposit paid, so exactly one email goes out however many paths race.
 */
export async function settle(
  payments: Payments,
  depositId: string,
  outcome: PaymentOutcome,
  event?: { id: string; type: string },
): Promise<SettleResult> {
  const result = await settleDeposit(payments.ctx.db, depositId, outcome, {
    ...(event && { event }),
    logger: payments.logger,
  });
  if (result.changed && result.status === 'Success') await sendPaidMail(payments, depositId);
  return result;
}
