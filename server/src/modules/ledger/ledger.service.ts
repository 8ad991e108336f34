import type { Knex } from 'knex';
import { tenthsToTokens } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import * as repo from './ledger.repository';
import type { LedgerKind, LedgerRow } from './ledger.repository';

export interface LedgerEntryInput {
  userId: string;
  /** Signed change in tenths of a token: positive credits, negative debits. Never zero. */
  deltaTenths: number;
  kind: LedgerKind;
  /** Unique per business event: `deposit:<id>`, `job:<id>:charge`, `job:<id>:refund`, `welcome:<userId>`... */
  idempotencyKey: string;
  reason?: string;
  metadata?: Record<string, unknown>;
  /**
   * For reversals (refunded payments): debit only what the balance holds instead of failing, and record
   * the shortfall in the metadata. Every other debit fails with 402 when the balance is too low.
   */
  clampAtZero?: boolean;
}

export interface LedgerOutcome {
  /** false when the idempotency key had already been applied: nothing changed. */
  applied: boolean;
  balanceTenths: number;
  entry: LedgerRow | null;
}

/** The 402 of a spend the balance does not cover; the message names both amounts. */
export function insufficientTokens(neededTenths: number, haveTenths: number): AppError {
  return new AppError(
    'insufficient_tokens',
    `Not enough tokens: this needs ${tenthsToTokens(neededTenths)}, you have ${tenthsToTokens(haveTenths)}.`,
  );
}

/**
 * 402 unless the balance covers `neededTenths`, read without a lock: a cheap check before work that costs
 * something (storing uploads), so a request that cannot pay is refused early. The locked check decides.
 */
export async function assertAffordable(db: Knex, userId: string, neededTenths: number): Promise<void> {
  const balance = (await repo.balanceOf(db, userId)) ?? 0;
  if (balance < neededTenths) throw insufficientTokens(neededTenths, balance);
}

/**
 * Locks the user's row for the rest of the transaction, then 402s unless the balance covers `neededTenths`:
 * several charges that must all succeed or none are checked as a whole before the first one is written, and
 * the lock comes before any foreign key to the user takes a share lock on the row (no deadlock).
 */
export async function lockCovering(trx: Knex.Transaction, userId: string, neededTenths: number): Promise<void> {
  const balance = (await repo.lockBalance(trx, userId)) ?? 0;
  if (balance < neededTenths) throw insufficientTokens(neededTenths, balance);
}

/**
 * The one way tokens move (grant, purchase, spend, refund, reversal, adjustment). Runs inside the
 * caller's transaction so the entry commits or rolls back with the business row it belongs to.
 * The user's row is locked, so concurrent entries for one user serialise; the unique idempotency key
 * makes a replay a no-op; the guarded balance (plus the check constraints) keeps it >= 0.
 */
export async function applyEntry(trx: Knex.Transaction, input: LedgerEntryInput): Promise<LedgerOutcome> {
  if (!Number.isInteger(input.deltaTenths) || input.deltaTenths === 0) {
    throw new Error(`ledger delta must be a non-zero integer number of tenths, got ${input.deltaTenths}`);
  }
  const balance = await repo.lockBalance(trx, input.userId);
  if (balance === null) throw new AppError('not_found', 'User not found.');

  const existing = await repo.findByKey(trx, input.idempotencyKey);
  if (existing) return { applied: false, balanceTenths: balance, entry: existing };

  let delta = input.deltaTenths;
  const metadata = { ...(input.metadata ?? {}) };
  if (balance + delta < 0) {
    if (!input.clampAtZero) throw insufficientTokens(-delta, balance);
    metadata.shortfall_tenths = -(balance + delta);
    delta = -balance;
  }
  const balanceAfter = balance + delta;
  // A clamped reversal against an empty balance still leaves a row (delta 0) recording the shortfall.
  const entry = await repo.insertEntry(trx, {
    user_id: input.userId,
    delta_tenths: delta,
    kind: input.kind,
    idempotency_key: input.idempotencyKey,
    balance_after_tenths: balanceAfter,
    reason: input.reason ?? null,
    metadata,
  });
  // The key was inserted by a transaction that committed after our lookup (the user lock makes this
  // rare: only entries for another user can share a key by mistake). Treat it as already applied.
  if (!entry) return { applied: false, balanceTenths: balance, entry: await repo.findByKey(trx, input.idempotencyKey) };
  if (delta !== 0) await repo.setBalance(trx, input.userId, balanceAfter);
  return { applied: true, balanceTenths: balanceAfter, entry };
}

/** Convenience for callers without a transaction of their own: opens one around applyEntry. */
export async function applyEntryNow(db: Knex, input: LedgerEntryInput): Promise<LedgerOutcome> {
  return db.transaction((trx) => applyEntry(trx, input));
}

/** Sum of a user's ledger in tenths; equals users.balance_tenths by construction (tests check it). */
export function ledgerSum(db: Knex, userId: string): Promise<number> {
  return repo.sumForUser(db, userId);
}

export { listForUser } from './ledger.repository';
