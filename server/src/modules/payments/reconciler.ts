import type { AppContext } from '../../context';
import { every, withLock } from '../../lib/task-lock';
import type { BackgroundTask } from '../../lib/background-task';
import * as repo from './deposits.repository';
import type { Deposit } from './deposits.repository';
import { settle } from './settle';
import { paymentsFor, type Payments } from './payments.context';
import { expireWithStripe, syncWithStripe } from './stripe-sync.service';

/** Open deposits younger than this are left to the webhook. */
export const RECHECK_AFTER_MS = 10 * 60 * 1000;
/**
 * Pending deposits older than this are expired: Stripe's own session lifetime (24 hours), and 30 minutes
 * for the test checkout, whose page nobody comes back to later.
 */
export const EXPIRE_AFTER_MS: Record<Deposit['provider'], number> = { stripe: 24 * 3600 * 1000, test: 30 * 60 * 1000 };
export const RECONCILE_EVERY_MS = 60 * 1000;
const BATCH = 100;
const LOCK_KEY = 'lock:payments-reconciler';

export interface ReconcileReport {
  checked: number;
  expired: number;
  failed: number;
}

async function reconcileOne(payments: Payments, deposit: Deposit, now: number): Promise<'checked' | 'expired'> {
  // Processing means paid by a slow method (bank debit): it may take days, so it is only re-checked.
  const age = now - new Date(deposit.created_at).getTime();
  if (deposit.status === 'Pending' && age >= EXPIRE_AFTER_MS[deposit.provider]) {
    if (deposit.provider === 'stripe') await expireWithStripe(payments, deposit);
    else await settle(payments, deposit.id, { kind: 'expired' });
    return 'expired';
  }
  await syncWithStripe(payments, deposit);
  return 'checked';
}

/**
 * One pass: asks Stripe about every open deposit older than 10 minutes (a webhook may have been lost)
 * and expires abandoned Pending ones (EXPIRE_AFTER_MS). Each change goes through the one fulfilment function.
 */
export async function reconcileOnce(payments: Payments, now = Date.now()): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, expired: 0, failed: 0 };
  const open = await repo.listOpenDeposits(payments.ctx.db, new Date(now - RECHECK_AFTER_MS), BATCH);
  for (const deposit of open) {
    try {
      report[await reconcileOne(payments, deposit, now)] += 1;
    } catch (err) {
      report.failed += 1;
      payments.logger.warn({ err, depositId: deposit.id }, 'reconciler could not check a deposit');
    }
  }
  await repo.markChecked(
    payments.ctx.db,
    open.map((d) => d.id),
  );
  return report;
}

/** One pass under a Redis lock, so only one API process reconciles at a time; null when another held it. */
export async function reconcileExclusively(payments: Payments): Promise<ReconcileReport | null> {
  let report: ReconcileReport | null = null;
  await withLock(payments.ctx.redis, LOCK_KEY, RECONCILE_EVERY_MS * 5, async () => {
    report = await reconcileOnce(payments);
  });
  return report;
}

/** The background task started by main.ts. */
export function paymentsReconcilerTask(ctx: AppContext): BackgroundTask {
  return {
    name: 'payments-reconciler',
    start() {
      const payments = paymentsFor(ctx);
      return every(
        RECONCILE_EVERY_MS,
        async () => {
          const report = await reconcileExclusively(payments);
          if (report && (report.checked || report.expired || report.failed))
            payments.logger.info(report, 'payments reconciled');
        },
        (err) => payments.logger.error({ err }, 'payments reconciler failed'),
      );
    },
  };
}
