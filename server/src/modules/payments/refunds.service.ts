import type { Knex } from 'knex';
import type { Logger } from '@imagestudio/runtime';
import { applyEntry } from '../ledger';
import * as repo from './deposits.repository';

/** The part of a Stripe charge that `charge.refunded` carries and a reversal needs. */
export interface RefundedCharge {
  payment_intent: string | null;
  amount: number;
  amount_refunded: number;
}

export interface ReversalResult {
  depositId: string | null;
  reversedTenths: number;
  /** Tokens the user had already spent, so they could not be taken back (recorded in the ledger row). */
  shortfallTenths: number;
  /** Money refunded by this event (minor units): the new cumulative refund less what was known before. */
  refundedMinor: number;
  duplicate: boolean;
}

/**
 * Takes back the tokens of a refunded payment, in proportion to the amount refunded so far. Stripe
 * reports the cumulative refund, so each event reverses only the difference from what was already
 * reversed; the ledger key includes the cumulative amount, so a replay reverses nothing twice. The
 * balance never goes below zero: what the user already spent is recorded as a shortfall.
 */
export async function reverseRefund(
  db: Knex,
  charge: RefundedCharge,
  event: { id: string; type: string },
  logger?: Logger,
): Promise<ReversalResult> {
  if (!charge.payment_intent)
    return { depositId: null, reversedTenths: 0, shortfallTenths: 0, refundedMinor: 0, duplicate: false };
  return db.transaction(async (trx) => {
    const deposit = await repo.lockDepositByPaymentIntent(trx, charge.payment_intent!);
    const fresh = await repo.recordEvent(trx, {
      id: event.id,
      type: event.type,
      deposit_id: deposit?.id ?? null,
      outcome: 'refund',
    });
    if (!deposit || !fresh)
      return {
        depositId: deposit?.id ?? null,
        reversedTenths: 0,
        shortfallTenths: 0,
        refundedMinor: 0,
        duplicate: !fresh,
      };

    const refunded = Math.min(charge.amount_refunded, charge.amount);
    const due = charge.amount > 0 ? Math.round((deposit.tokens_tenths * refunded) / charge.amount) : 0;
    const delta = deposit.status === 'Success' ? due - deposit.reversed_tenths : 0;
    let shortfall = 0;
    let reversed = 0;
    if (delta > 0) {
      const outcome = await applyEntry(trx, {
        userId: deposit.user_id,
        deltaTenths: -delta,
        kind: 'reversal',
        idempotencyKey: `deposit:${deposit.id}:refund:${refunded}`,
        reason: 'Payment refunded',
        metadata: { deposit_id: deposit.id, refunded_minor: refunded, currency: deposit.currency },
        clampAtZero: true,
      });
      shortfall = Number(outcome.entry?.metadata.shortfall_tenths ?? 0);
      reversed = delta - shortfall;
      if (shortfall > 0)
        logger?.warn({ depositId: deposit.id, shortfall }, 'refund reversal clamped at zero: tokens already spent');
    }
    await repo.updateDeposit(trx, deposit.id, {
      refunded_minor: Math.max(refunded, deposit.refunded_minor),
      reversed_tenths: Math.max(due, deposit.reversed_tenths),
    });
    return {
      depositId: deposit.id,
      reversedTenths: reversed,
      shortfallTenths: shortfall,
      refundedMinor: Math.max(0, refunded - deposit.refunded_minor),
      duplicate: false,
    };
  });
}
