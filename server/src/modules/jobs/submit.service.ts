import { createHash, randomUUID } from 'node:crypto';
import { JOB_MESSAGES, jobPayloadSchemas, type JobName, type JobPayloads } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { serviceUnavailable, validationError } from '../../lib/errors';
import { applyEntry, insufficientTokens } from '../ledger/ledger.service';
import { assertToolAvailable } from '../tools/tools.status';
import type { CleanImage } from '../uploads/image-inspect';
import { inputKey as inputKeyOf, inputsPrefix } from '@imagestudio/runtime';
import { fairPriority } from './fair-priority';
import { failJob } from './finalize.service';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';

export interface SubmitRequest<T extends JobName> {
  userId: string;
  tool: T;
  /** What the user asked for, stored on the row and shown back. */
  params: Record<string, unknown>;
  costTenths: number;
  /** Checks and cleans the upload (tools with an input image); runs only after the cheap checks pass. */
  prepareInput?: () => Promise<CleanImage>;
  /** The raw bytes the user sent, part of the idempotency fingerprint. */
  rawInput?: Buffer;
  /** The uploaded file's name, kept to name the result's download. */
  inputName?: string | null;
  /** Builds the queue payload once the job id (and input key) exist. */
  payload: (ids: { jobId: string; inputKey: string | null }) => Omit<JobPayloads[T], 'jobId' | 'userId' | 'requestId'>;
  idempotencyKey?: string;
  requestId?: string;
}

export interface SubmitOutcome {
  job: JobRow;
  /** true when an Idempotency-Key matched an earlier request: nothing new was charged. */
  replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** 422 unless an Idempotency-Key header is 1-200 visible ASCII characters (single jobs and batches alike). */
export function checkIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw validationError({ 'Idempotency-Key': ['Idempotency-Key must be 1-200 visible ASCII characters.'] });
  }
}

function fingerprint(tool: string, params: Record<string, unknown>, raw?: Buffer): string {
  const hash = createHash('sha256').update(JSON.stringify({ tool, params }));
  if (raw) hash.update(raw);
  return hash.digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

async function replayOf(ctx: AppContext, userId: string, key: string, hash: string): Promise<SubmitOutcome | null> {
  const existing = await repo.findByIdempotencyKey(ctx.db, userId, key);
  if (!existing) return null;
  if (existing.request_hash !== hash) throw validationError({ 'Idempotency-Key': [JOB_MESSAGES.idempotencyMismatch] });
  return { job: existing, replayed: true };
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Accepts a job: idempotency replay, tool availability (503 before charging), the upload's checks,
 * input stored in S3, then ONE transaction for the job row and its charge `job:<id>:charge` (402 when
 * the balance is short), then the BullMQ job. When the queue cannot take it the charge is refunded,
 * the job marked failed, and the caller gets 503.
 */
export async function submitJob<T extends JobName>(ctx: AppContext, req: SubmitRequest<T>): Promise<SubmitOutcome> {
  const key = req.idempotencyKey;
  checkIdempotencyKey(key);
  const hash = key ? fingerprint(req.tool, req.params, req.rawInput) : null;
  if (key && hash) {
    const replay = await replayOf(ctx, req.userId, key, hash);
    if (replay) return replay;
  }
  await assertToolAvailable(ctx, req.tool);
  const input = req.prepareInput ? await req.prepareInput() : null;

  // A cheap read first, so a request that cannot pay stores nothing; the locked check below decides.
  const balance = await ctx.db('users').where({ id: req.userId }).first('balance_tenths');
  if (balance && Number(balance.balance_tenths) < req.costTenths)
    throw insufficientTokens(req.costTenths, Number(balance.balance_tenths));

  const jobId = randomUUID();
  const owner = { userId: req.userId, jobId };
  const inputKey = input ? inputKeyOf(owner, input.format === 'jpeg' ? 'jpg' : input.format) : null;
  if (input && inputKey) await ctx.storage.put(inputKey, input.bytes, input.contentType);

  let job: JobRow;
  try {
    job = await ctx.db.transaction(async (trx) => {
      // The charge first: it locks the user's row FOR UPDATE before the job row's foreign key takes a
      // share lock on it, so concurrent submissions queue on the lock instead of deadlocking.
      await applyEntry(trx, {
        userId: req.userId,
        deltaTenths: -req.costTenths,
        kind: 'spend',
        idempotencyKey: `job:${jobId}:charge`,
        reason: `${req.tool} job`,
        metadata: { job_id: jobId, tool: req.tool },
      });
      return repo.insertJob(trx, {
        id: jobId,
        user_id: req.userId,
        tool: req.tool,
        params: req.params,
        cost_tenths: req.costTenths,
        input_key: inputKey,
        input_name: req.inputName ?? null,
        input_width: input?.width ?? null,
        input_height: input?.height ?? null,
        idempotency_key: key ?? null,
        request_hash: hash,
        request_id: req.requestId ?? null,
      });
    });
  } catch (err) {
    if (inputKey) await ctx.storage.deletePrefix(inputsPrefix(owner)).catch(() => undefined);
    // Two requests with one Idempotency-Key raced: the loser answers with the winner's job.
    if (key && hash && isUniqueViolation(err)) {
      const replay = await replayOf(ctx, req.userId, key, hash);
      if (replay) return replay;
    }
    throw err;
  }

  const payload = jobPayloadSchemas[req.tool].parse({
    ...req.payload({ jobId, inputKey }),
    jobId,
    userId: req.userId,
    requestId: req.requestId?.slice(0, 100),
  });
  try {
    // This job is already counted among the user's open jobs; its rank is the number before it.
    const priority = fairPriority((await repo.countOpenForUser(ctx.db, req.userId)) - 1);
    await withTimeout(
      ctx.queue.add(req.tool, payload, { jobId, ...(priority ? { priority } : {}) }),
      ctx.config.QUEUE_ADD_TIMEOUT_MS,
    );
  } catch (err) {
    ctx.logger.error({ err, jobId }, 'queue unreachable: job refunded');
    ctx.services.jobMetrics.rejected.inc({ tool: req.tool });
    await failJob(ctx, jobId, { message: JOB_MESSAGES.queueBusy, detail: `enqueue failed: ${(err as Error).message}` });
    throw serviceUnavailable(JOB_MESSAGES.queueBusy);
  }
  return { job, replayed: false };
}
