import { type JobOwner, resultsPrefix } from '@imagestudio/runtime';
import {
  JOB_MESSAGES,
  isFinalJobStatus,
  jobProgressSchema,
  jobResultSchema,
  userFailureMessage,
} from '@imagestudio/contracts';
import { applyEntry } from '../ledger';
import { notifyJobChanged } from './job-updates';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import { forgetRecentRuns } from './job-estimate';
import type { JobsDeps } from './jobs.deps';

/**
 * The only code that writes job outcomes. Every function is idempotent: the job row is locked, an
 * outcome is written only while the job is open, and the refund's ledger key `job:<id>:refund` makes a
 * second refund impossible even if two processes race. Events seen twice, late, or after a restart
 * therefore change nothing.
 */

/** The owner and id that name a job's S3 folders (the key layout both processes share). */
export const jobOwner = (row: Pick<JobRow, 'user_id' | 'id'>): JobOwner => ({ userId: row.user_id, jobId: row.id });

function observe(ctx: JobsDeps, row: JobRow): void {
  const metrics = ctx.services.jobMetrics;
  metrics.finished.inc({ tool: row.tool, status: row.status });
  if (row.started_at && row.finished_at) {
    metrics.duration.observe(
      { tool: row.tool, status: row.status },
      (row.finished_at.getTime() - row.started_at.getTime()) / 1000,
    );
  }
}

/** A worker took the job (BullMQ `active`): queued -> running; false when it was not queued any more. */
export async function recordStarted(ctx: JobsDeps, jobId: string): Promise<boolean> {
  if (!(await repo.markRunning(ctx.db, jobId))) return false;
  notifyJobChanged(ctx, jobId);
  const row = await repo.findById(ctx.db, jobId);
  if (row?.started_at)
    ctx.services.jobMetrics.wait.observe(
      { tool: row.tool },
      (row.started_at.getTime() - row.created_at.getTime()) / 1000,
    );
  return true;
}

/** The worker reported progress `{percent, stage}`; anything else is ignored. */
export async function recordProgress(ctx: JobsDeps, jobId: string, data: unknown): Promise<void> {
  const parsed = jobProgressSchema.safeParse(data);
  if (!parsed.success) return;
  if (await repo.updateProgress(ctx.db, jobId, parsed.data.percent, parsed.data.stage)) notifyJobChanged(ctx, jobId);
}

export interface FailOptions {
  /** User-facing message. */
  message: string;
  /** Operator-facing reason (the worker's error). */
  detail?: string | null;
  cancelled?: boolean;
}

/** Fails (or cancels) an open job and refunds its charge in the same transaction; false when it had ended. */
export async function failJob(ctx: JobsDeps, jobId: string, options: FailOptions): Promise<boolean> {
  const row = await ctx.db.transaction(async (trx) => {
    const job = await repo.lockJob(trx, jobId);
    if (!job || isFinalJobStatus(job.status)) return null;
    await applyEntry(trx, {
      userId: job.user_id,
      deltaTenths: Number(job.cost_tenths),
      kind: 'refund',
      idempotencyKey: `job:${job.id}:refund`,
      reason: `Refund: ${job.tool} job`,
      metadata: { job_id: job.id, tool: job.tool },
    });
    return repo.finishJob(trx, jobId, {
      status: options.cancelled ? 'cancelled' : 'failed',
      error: options.message,
      error_detail: options.detail ?? null,
      refunded: true,
    });
  });
  if (!row) return false;
  observe(ctx, row);
  forgetRecentRuns(ctx, row.tool);
  notifyJobChanged(ctx, jobId);
  return true;
}

/**
 * Refunds a job that succeeded but whose result the caller cannot use (the remove.bg-compatible API's
 * `unknown_foreground`: no subject was found). The job keeps its status and result; the refund uses the one key
 * `job:<id>:refund`, so it happens at most once. False when the job is not a succeeded, unrefunded one.
 */
export async function refundSucceededJob(ctx: JobsDeps, jobId: string, reason: string): Promise<boolean> {
  const refunded = await ctx.db.transaction(async (trx) => {
    const job = await repo.lockJob(trx, jobId);
    if (!job || job.status !== 'succeeded' || job.refunded) return false;
    await applyEntry(trx, {
      userId: job.user_id,
      deltaTenths: Number(job.cost_tenths),
      kind: 'refund',
      idempotencyKey: `job:${job.id}:refund`,
      reason: `Refund: ${job.tool} job (${reason})`,
      metadata: { job_id: job.id, tool: job.tool },
    });
    await repo.markRefunded(trx, jobId);
    return true;
  });
  if (refunded) notifyJobChanged(ctx, jobId);
  return refunded;
}

/**
 * BullMQ `failed` (attempts used up or UnrecoverableError): failed, or cancelled when the user asked. The
 * user reads the worker's reason only when it is one written for users (contracts WORKER_USER_MESSAGES).
 */
export async function recordFailed(ctx: JobsDeps, jobId: string, reason: string): Promise<boolean> {
  const row = await repo.findById(ctx.db, jobId);
  if (!row) return false;
  const cancelled = row.cancel_requested_at !== null || reason === 'cancelled';
  return failJob(ctx, jobId, {
    message: cancelled ? JOB_MESSAGES.cancelled : userFailureMessage(reason),
    detail: reason,
    cancelled,
  });
}

/**
 * BullMQ `completed`: succeeded with the worker's result. A result that breaks the contract (or points
 * outside this job's results folder) fails the job instead. A completion that arrives after the job was
 * failed or cancelled leaves the outcome alone and removes the orphaned files.
 */
export async function recordCompleted(ctx: JobsDeps, jobId: string, returnValue: unknown): Promise<boolean> {
  const current = await repo.findById(ctx.db, jobId);
  if (!current) return false;
  const parsed = jobResultSchema.safeParse(typeof returnValue === 'string' ? safeJson(returnValue) : returnValue);
  const prefix = resultsPrefix(jobOwner(current));
  if (
    !parsed.success ||
    [...parsed.data.files.map((f) => f.key), ...(parsed.data.thumbnailKeys ?? [])].some((k) => !k.startsWith(prefix))
  ) {
    return failJob(ctx, jobId, { message: JOB_MESSAGES.failed, detail: 'worker result breaks the contract' });
  }
  const row = await ctx.db.transaction(async (trx) => {
    const job = await repo.lockJob(trx, jobId);
    if (!job || isFinalJobStatus(job.status)) return null;
    return repo.finishJob(trx, jobId, { status: 'succeeded', result: parsed.data });
  });
  if (!row) {
    const after = await repo.findById(ctx.db, jobId);
    if (after && after.status !== 'succeeded') await ctx.storage.deletePrefix(prefix).catch(() => undefined);
    return false;
  }
  observe(ctx, row);
  forgetRecentRuns(ctx, row.tool);
  notifyJobChanged(ctx, jobId);
  return true;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
