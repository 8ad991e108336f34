import { randomUUID } from 'node:crypto';
import {
  ADMIN_MESSAGES,
  ADMIN_PAGE_SIZE,
  JOB_MESSAGES,
  fromMinorUnits,
  isFinalJobStatus,
  tenthsToTokens,
  tokensToTenths,
  type AdminDepositRow,
  type AdminJobDetail,
  type AdminJobSummary,
  type AdminLedgerRow,
  type AdminPage,
  type AdminUserDetail,
  type AdminUserSummary,
  type JobResult,
} from '@imagestudio/contracts';
import type { AuditWrite } from './admin-audit';
import type { AdminDeps } from './admin.deps';
import { AppError, notFound, validationError } from '../../lib/errors';
import { consumeOrThrow } from '../../http/rate-limits';
import { setUserDisabled } from '../admin-cli';
import { listKeys, revokeKey } from '../api-keys';
import { resendVerification } from '../email-verification';
import { applyEntry, ledgerSum, listForUser, type LedgerRow } from '../ledger';
import { cancelJob, lockJob } from '../jobs';
import { findDeposit, listUserDeposits, type Deposit, receiptHtml, paymentsFor } from '../payments';
import { presentEntry } from '../token-activity';
import * as repo from './admin.repository';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
const seconds = (from: Date | null, to: Date | null) =>
  from && to ? Math.round((new Date(to).getTime() - new Date(from).getTime()) / 100) / 10 : null;
const userNotFound = () => notFound('User not found.');
const jobNotFound = () => notFound('Job not found.');

function pageOf<T>(items: T[], page: number, total: number): AdminPage<T> {
  return { items, page, per_page: ADMIN_PAGE_SIZE, total, last_page: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) };
}

function presentUser(row: repo.UserListRow): AdminUserSummary {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    surname: row.surname,
    role: row.role === 'admin' ? 'admin' : 'customer',
    balance: tenthsToTokens(row.balance_tenths),
    email_verified: row.email_verified_at !== null,
    disabled: row.disabled_at !== null,
    created_at: iso(row.created_at) as string,
  };
}

function presentJobSummary(row: repo.AdminJobRow): AdminJobSummary {
  return {
    id: row.id,
    user_id: row.user_id,
    user_email: row.user_email,
    tool: row.tool,
    status: row.status,
    cost: tenthsToTokens(row.cost_tenths),
    refunded: row.refunded,
    created_at: iso(row.created_at) as string,
    finished_at: iso(row.finished_at),
    batch_id: row.batch_id,
  };
}

function presentLedger(row: LedgerRow): AdminLedgerRow {
  return { ...presentEntry(row), idempotency_key: row.idempotency_key, reason: row.reason, metadata: row.metadata };
}

function presentDeposit(d: Deposit & { user_email?: string }): AdminDepositRow {
  return {
    id: d.id,
    user_id: d.user_id,
    ...(d.user_email !== undefined ? { user_email: d.user_email } : {}),
    status: d.status,
    provider: d.provider,
    tokens: tenthsToTokens(d.tokens_tenths),
    amount: fromMinorUnits(Number(d.amount_minor), d.currency),
    currency: d.currency,
    invoice_number: d.invoice_number,
    stripe_session_id: d.stripe_session_id,
    stripe_payment_intent: d.stripe_payment_intent_id,
    refunded: fromMinorUnits(Number(d.refunded_minor), d.currency),
    created_at: iso(d.created_at) as string,
    paid_at: iso(d.completed_at),
  };
}

export async function searchDeposits(ctx: AdminDeps, filter: repo.DepositSearch, page: number) {
  const { rows, total } = await repo.searchDeposits(ctx.db, filter, page, ADMIN_PAGE_SIZE);
  return pageOf(rows.map(presentDeposit), page, total);
}

/** A paid deposit's receipt as its customer sees it, in `lang`; 404 for an unknown or unpaid one. */
export async function depositReceipt(ctx: AdminDeps, depositId: string, lang: string) {
  const deposit = repo.isUuid(depositId) ? await findDeposit(ctx.db, depositId) : null;
  if (!deposit) throw notFound('Receipt not found.');
  return { userId: deposit.user_id, html: await receiptHtml(paymentsFor(ctx), deposit.user_id, depositId, lang) };
}

export async function searchUsers(ctx: AdminDeps, q: string | undefined, page: number) {
  const { rows, total } = await repo.searchUsers(ctx.db, q, page, ADMIN_PAGE_SIZE);
  return pageOf(rows.map(presentUser), page, total);
}

async function userRow(ctx: AdminDeps, id: string) {
  const row = await repo.findUser(ctx.db, id);
  if (!row) throw userNotFound();
  return row;
}

/** Everything the console shows of one customer. */
export async function userDetail(ctx: AdminDeps, id: string): Promise<AdminUserDetail> {
  const row = await userRow(ctx, id);
  const [ledger, sum, deposits, jobs, keys] = await Promise.all([
    listForUser(ctx.db, id, ADMIN_PAGE_SIZE, 0),
    ledgerSum(ctx.db, id),
    listUserDeposits(ctx.db, id, 1, ADMIN_PAGE_SIZE),
    repo.searchJobs(ctx.db, { user: id }, 1, ADMIN_PAGE_SIZE),
    listKeys(ctx, id),
  ]);
  return {
    ...presentUser(row),
    phone: row.phone,
    country_id: row.country_id,
    city: row.city,
    address: row.address,
    post_code: row.post_code,
    ledger_sum: tenthsToTokens(sum),
    ledger: ledger.map(presentLedger),
    deposits: deposits.rows.map(presentDeposit),
    jobs: jobs.rows.map(presentJobSummary),
    api_keys: keys,
    sessions: { epoch: row.session_epoch },
  };
}

export async function searchJobs(ctx: AdminDeps, filter: repo.JobSearch, page: number) {
  const { rows, total } = await repo.searchJobs(ctx.db, filter, page, ADMIN_PAGE_SIZE);
  return pageOf(rows.map(presentJobSummary), page, total);
}

/** One job with its parameters, timings, the queue's view of it (while BullMQ holds it) and its ledger rows. */
export async function jobDetail(ctx: AdminDeps, id: string): Promise<AdminJobDetail> {
  const row = await repo.findJob(ctx.db, id);
  if (!row) throw jobNotFound();
  const [ledger, queued] = await Promise.all([
    repo.ledgerForJob(ctx.db, id) as Promise<LedgerRow[]>,
    ctx.queue.getJob(id).catch(() => undefined),
  ]);
  const result = row.result as JobResult | null;
  return {
    ...presentJobSummary(row),
    params: row.params,
    progress: row.progress,
    stage: row.stage,
    error: row.error,
    error_detail: row.error_detail,
    input: row.input_key ? { name: row.input_name, width: row.input_width, height: row.input_height } : null,
    result,
    timings: {
      queued_s: seconds(row.created_at, row.started_at),
      running_s: seconds(row.started_at, row.finished_at),
      total_s: seconds(row.created_at, row.finished_at),
      stages_ms: result?.timings ?? null,
    },
    provider: result?.provider ?? null,
    started_at: iso(row.started_at),
    cancel_requested_at: iso(row.cancel_requested_at),
    queue: queued
      ? {
          state: await queued.getState(),
          attempts_made: queued.attemptsMade,
          processed_by: queued.processedBy ?? null,
          failed_reason: queued.failedReason ?? null,
        }
      : null,
    ledger: ledger.map(presentLedger),
  };
}

/**
 * Gives a succeeded job's cost back, once: the ledger key is the automatic refund's `job:<id>:refund`, so
 * neither a second click, a concurrent request (the job row is locked) nor a later automatic refund can credit
 * it again. The reason is kept on the ledger row; the customer's activity reads "Refund: <tool>". The audit row
 * is written in the refund's transaction.
 */
export async function refundJob(ctx: AdminDeps, actorId: string, id: string, reason: string, audit: AuditWrite) {
  const job = await repo.findJob(ctx.db, id);
  if (!job) throw jobNotFound();
  return ctx.db.transaction(async (trx) => {
    const row = await lockJob(trx, id);
    if (!row) throw jobNotFound();
    if (row.status !== 'succeeded') throw new AppError('conflict', ADMIN_MESSAGES.notSucceeded);
    const cost = Number(row.cost_tenths);
    if (row.refunded || cost <= 0) throw new AppError('conflict', ADMIN_MESSAGES.alreadyRefunded);
    const outcome = await applyEntry(trx, {
      userId: row.user_id,
      deltaTenths: cost,
      kind: 'refund',
      idempotencyKey: `job:${row.id}:refund`,
      reason,
      metadata: { job_id: row.id, tool: row.tool, source: 'operator-console', actor_id: actorId },
    });
    if (!outcome.applied) throw new AppError('conflict', ADMIN_MESSAGES.alreadyRefunded);
    await repo.markJobRefunded(trx, row.id);
    const result = {
      job_id: row.id,
      user_id: row.user_id,
      tokens: tenthsToTokens(cost),
      balance: tenthsToTokens(outcome.balanceTenths),
    };
    await audit(trx, `job:${row.id}`, {
      user_id: result.user_id,
      tokens: result.tokens,
      reason,
      before: { refunded: false },
      after: { refunded: true, balance: result.balance },
    });
    return result;
  });
}

/** Cancels an open job through the customer's own cancel path (refunded when it ends). */
export async function cancelAnyJob(ctx: AdminDeps, id: string) {
  const job = await repo.findJob(ctx.db, id);
  if (!job) throw jobNotFound();
  if (isFinalJobStatus(job.status)) throw new AppError('conflict', JOB_MESSAGES.alreadyFinished);
  const view = await cancelJob(ctx, job.user_id, id);
  return { before: job.status, job: view };
}

/**
 * Grants (positive) or deducts (negative) tokens with a reason, which the customer's token activity shows. A
 * deduction never takes the balance below zero. An `Idempotency-Key` header makes a repeated request a no-op
 * (and writes no audit row); an applied one writes its audit row in the ledger entry's transaction.
 */
export async function adjustBalance(
  ctx: AdminDeps,
  actorId: string,
  userId: string,
  input: { tokens: number; reason: string },
  idempotencyKey: string | undefined,
  audit: AuditWrite,
) {
  const before = await userRow(ctx, userId);
  const key = `admin:${idempotencyKey ? `${actorId}:${idempotencyKey}` : randomUUID()}`;
  const deltaTenths = tokensToTenths(input.tokens);
  const outcome = await ctx.db
    .transaction(async (trx) => {
      const applied = await applyEntry(trx, {
        userId,
        deltaTenths,
        kind: 'adjustment',
        idempotencyKey: key,
        reason: input.reason,
        metadata: { source: 'operator-console', actor_id: actorId },
      });
      if (applied.applied)
        await audit(trx, `user:${userId}`, {
          tokens: input.tokens,
          reason: input.reason,
          before: { balance: tenthsToTokens(before.balance_tenths) },
          after: { balance: tenthsToTokens(applied.balanceTenths) },
        });
      return applied;
    })
    .catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'insufficient_tokens')
        throw validationError({ tokens: [ADMIN_MESSAGES.belowZero] });
      throw err;
    });
  // A key already used for another adjustment (another customer, amount or reason) is the tool calls' 422, not a
  // silent `applied: false`: the operator would otherwise believe a grant went through that never did.
  const earlier = outcome.applied ? null : outcome.entry;
  if (
    earlier &&
    (earlier.user_id !== userId || Number(earlier.delta_tenths) !== deltaTenths || earlier.reason !== input.reason)
  )
    throw validationError({ 'Idempotency-Key': [JOB_MESSAGES.idempotencyMismatch] });
  return {
    applied: outcome.applied,
    before: tenthsToTokens(before.balance_tenths),
    balance: tenthsToTokens(outcome.balanceTenths),
    entry: outcome.entry ? presentLedger(outcome.entry) : null,
  };
}

/**
 * Disables (signing the user out everywhere) or re-enables an account; an operator cannot disable themself. The
 * change and its audit row commit together.
 */
export async function setDisabled(
  ctx: AdminDeps,
  actorId: string,
  userId: string,
  disabled: boolean,
  audit: AuditWrite,
) {
  const row = await userRow(ctx, userId);
  if (disabled && userId === actorId) throw new AppError('conflict', ADMIN_MESSAGES.notYourself);
  const change = { before: { disabled: row.disabled_at !== null }, after: { disabled } };
  await ctx.db.transaction(async (trx) => {
    if ((row.disabled_at !== null) !== disabled) await setUserDisabled(trx, userId, disabled);
    await audit(trx, `user:${userId}`, change);
  });
  return change;
}

/** Ends every session of the user (their API keys keep working; revoke those one by one), audited with it. */
export async function signOutEverywhere(ctx: AdminDeps, userId: string, audit: AuditWrite) {
  const row = await userRow(ctx, userId);
  await ctx.db.transaction(async (trx) => {
    const epoch = await repo.endSessions(trx, userId);
    await audit(trx, `user:${userId}`, { before: { epoch: row.session_epoch }, after: { epoch } });
  });
}

/** Revokes one of the user's API keys, audited (with the key's name and prefix) in the same transaction. */
export async function revokeUserKey(ctx: AdminDeps, userId: string, keyId: string, audit: AuditWrite) {
  await userRow(ctx, userId);
  const key = (await listKeys(ctx, userId)).find((k) => k.id === keyId);
  const shown = key ? { id: key.id, name: key.name, prefix: key.prefix, last4: key.last4 } : { id: keyId };
  await ctx.db.transaction(async (trx) => {
    await revokeKey({ ...ctx, db: trx }, userId, keyId);
    await audit(trx, `user:${userId}`, { key: shown, before: { revoked: false }, after: { revoked: true } });
  });
}

/** Mails a fresh verification link; counts against the user's own resend limit. */
export async function resendUserVerification(ctx: AdminDeps, userId: string) {
  const row = await userRow(ctx, userId);
  if (row.email_verified_at) throw new AppError('conflict', ADMIN_MESSAGES.alreadyVerified);
  await consumeOrThrow(ctx.services.rateLimits.fixed.verificationPerUser, row.id);
  resendVerification(ctx, row);
  return { email: row.email };
}
