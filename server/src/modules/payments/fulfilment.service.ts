import type { Knex } from 'knex';
import type { Logger } from '@imagestudio/runtime';
import { applyEntry } from '../ledger';
import { nextStatus, type PaymentOutcome } from './deposit-state';
import * as repo from './deposits.repository';
import { assignInvoiceNumber } from './invoice-number';
import type { DepositStatus } from './deposits.repository';

export interface SettleResult {
  /** The deposit's status after the call (unchanged when the outcome changed nothing). */
  status: DepositStatus | null;
  changed: boolean;
  credited: boolean;
  /** The webhook event had already been handled. */
  duplicate: boolean;
}

export interface SettleOptions {
  /** A Stripe event id: recorded in the same transaction, so a redelivery is a no-op. */
  event?: { id: string; type: string };
  logger?: Logger;
}

/** Message stored when a paid amount differs from the quote (the deposit is then never credited). */
export const AMOUNT_MISMATCH = 'The paid amount does not match the order.';

/**
 * The one fulfilment function: moves a deposit to the outcome's status and, on payment, credits its
 * tokens with the ledger key `deposit:<id>`, all in one transaction under the deposit's row lock.
 * Webhooks, the Stripe return page, status re-checks, the reconciler and the test checkout all call
 * this, so whichever comes first wins and the others change nothing.
 */
export async function settleDeposit(
  db: Knex,
  depositId: string,
  outcome: PaymentOutcome,
  opts: SettleOptions = {},
): Promise<SettleResult> {
  return db.transaction(async (trx) => {
    const deposit = await repo.lockDeposit(trx, depositId);
    if (!deposit) return { status: null, changed: false, credited: false, duplicate: false };

    let target = nextStatus(deposit.status, outcome);
    let error: string | null = outcome.kind === 'failed' ? outcome.error : null;
    if (target === 'Success' && outcome.kind === 'paid' && !amountMatches(deposit, outcome)) {
      opts.logger?.error(
        { depositId, expected: deposit.amount_minor, paid: outcome.amountMinor, currency: outcome.currency },
        'paid amount differs from the order: not credited, needs manual review',
      );
      target = 'Error';
      error = AMOUNT_MISMATCH;
    }
    if (opts.event) {
      const outcomeText = target ? `${deposit.status}->${target}` : `ignored (${deposit.status})`;
      const fresh = await repo.recordEvent(trx, {
        id: opts.event.id,
        type: opts.event.type,
        deposit_id: depositId,
        outcome: outcomeText,
      });
      if (!fresh) return { status: deposit.status, changed: false, credited: false, duplicate: true };
    }
    if (!target) {
      if (outcome.kind === 'paid' && deposit.status !== 'Success') {
        // Money arrived for a deposit that already ended otherwise: nothing is credited automatically.
        opts.logger?.error(
          { depositId, status: deposit.status },
          'payment reported for a closed deposit: needs manual review',
        );
      }
      return { status: deposit.status, changed: false, credited: false, duplicate: false };
    }

    const paymentIntentId = 'paymentIntentId' in outcome ? outcome.paymentIntentId : undefined;
    const now = new Date();
    await repo.updateDeposit(trx, depositId, {
      status: target,
      ...(error !== null && { error }),
      ...(paymentIntentId && { stripe_payment_intent_id: paymentIntentId }),
      ...(target !== 'Processing' && { completed_at: now }),
      // numbered in the crediting transaction: every paid deposit has exactly one invoice number
      ...(target === 'Success' && !deposit.invoice_number && { invoice_number: await assignInvoiceNumber(trx, now) }),
    });
    let credited = false;
    if (target === 'Success') {
      const entry = await applyEntry(trx, {
        userId: deposit.user_id,
        deltaTenths: deposit.tokens_tenths,
        kind: 'purchase',
        idempotencyKey: `deposit:${deposit.id}`,
        reason: deposit.pack_title ? `Token pack: ${deposit.pack_title}` : 'Token purchase',
        metadata: { deposit_id: deposit.id, amount_minor: deposit.amount_minor, currency: deposit.currency },
      });
      credited = entry.applied;
    }
    return { status: target, changed: true, credited, duplicate: false };
  });
}

function amountMatches(deposit: repo.Deposit, outcome: { amountMinor: number; currency: string }): boolean {
  return (
    outcome.amountMinor === deposit.amount_minor && outcome.currency.toUpperCase() === deposit.currency.toUpperCase()
  );
}
