import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { jobPayloadSchema, type JobName, type JobPayloads } from '@imagestudio/contracts';
import { inputKey as inputKeyOf } from '@imagestudio/runtime';
import { applyEntry, assertAffordable, lockCovering } from '../ledger';
import { toolDefinition } from '../tool-definitions';
import { enqueueJobs } from './enqueue-jobs';
import { makeInputPreviews } from './input-previews';
import { inputFileKeys, removeInputs, storeInputs, type JobInput } from './job-inputs';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

export { cleanInput, type JobInput, type JobInputFile } from './job-inputs';

/** One job to admit: its params as stored on the row, its price, its input. */
export interface JobToAdmit {
  params: Record<string, unknown>;
  costTenths: number;
  input?: JobInput;
  batchPosition?: number;
  /** The batch item this job runs again. */
  retryOf?: string;
}

/** Jobs of one tool for one user, admitted all or none. */
export interface Admission<B, N extends JobName = JobName> {
  userId: string;
  tool: N;
  jobs: JobToAdmit[];
  requestId?: string;
  /** A single job's Idempotency-Key and request fingerprint, stored on its row. */
  idempotency?: { key: string; hash: string };
  /** The batch the jobs belong to; `insert` creates its row in the same transaction, before the jobs. */
  batch?: { id: string; insert?: (trx: Knex.Transaction) => Promise<B> };
}

/** A job with its id, its input's S3 key and its checked queue payload (tool N's). */
interface PlannedJob<N extends JobName = JobName> extends JobToAdmit {
  id: string;
  inputKey: string | null;
  payload: JobPayloads[N];
}

/**
 * One job's charge and its row. The ledger key `job:<id>:charge` is written here and nowhere else, so every
 * way of accepting a job charges under the same key (a replayed charge is then a no-op).
 */
async function chargeAndInsert(trx: Knex.Transaction, admission: Admission<unknown>, job: PlannedJob): Promise<JobRow> {
  const { userId, tool, batch } = admission;
  await applyEntry(trx, {
    userId,
    deltaTenths: -job.costTenths,
    kind: 'spend',
    idempotencyKey: `job:${job.id}:charge`,
    reason: `${tool} job`,
    metadata: {
      job_id: job.id,
      tool,
      ...(batch ? { batch_id: batch.id } : {}),
      ...(job.retryOf ? { retry_of: job.retryOf } : {}),
    },
  });
  return repo.insertJob(trx, {
    id: job.id,
    user_id: userId,
    tool,
    params: job.params,
    cost_tenths: job.costTenths,
    input_key: job.inputKey,
    input_name: job.input?.name ?? null,
    input_width: job.input?.width ?? null,
    input_height: job.input?.height ?? null,
    idempotency_key: admission.idempotency?.key ?? null,
    request_hash: admission.idempotency?.hash ?? null,
    request_id: admission.requestId ?? null,
    batch_id: batch?.id,
    batch_position: job.batchPosition,
    retry_of: job.retryOf,
  });
}

/**
 * The one way jobs are accepted (a tool call, a batch, a batch item's retry), all or none: the balance checked
 * for the whole price (402 before anything is stored), the inputs stored, then ONE transaction that locks the user's row, checks the balance again, inserts the batch
 * row if any, and per job its charge `job:<id>:charge` and its row; then the queue, with fair-share priorities.
 * Each job is charged by its own entry, so a failed or cancelled job refunds only itself. A failed transaction
 * removes the stored inputs and is rethrown (a unique violation is the caller's to answer); jobs the queue
 * refuses are failed and refunded, and the caller gets 503. The browser previews of inputs that need one are made
 * after that, in the background (input-previews.ts).
 */
export async function admitJobs<B = undefined, N extends JobName = JobName>(
  ctx: JobsDeps,
  admission: Admission<B, N>,
): Promise<{ jobs: JobRow[]; batch: B | undefined }> {
  const { userId, tool } = admission;
  const totalTenths = admission.jobs.reduce((sum, job) => sum + job.costTenths, 0);
  await assertAffordable(ctx.db, userId, totalTenths);

  const definition = toolDefinition(tool);
  const planned = admission.jobs.map((job): PlannedJob<N> => {
    const id = randomUUID();
    const inputKey = job.input ? inputKeyOf({ userId, jobId: id }, job.input.extension) : null;
    // Built before anything is charged, so a payload the contract refuses costs the user nothing.
    const payload = jobPayloadSchema(tool).parse({
      ...definition.payload(job.params, inputKey, inputFileKeys({ userId, jobId: id }, job.input)),
      jobId: id,
      userId,
      requestId: admission.requestId?.slice(0, 100),
    });
    return { ...job, id, inputKey, payload };
  });
  const stores = planned.flatMap((p) =>
    p.input && p.inputKey ? [{ jobId: p.id, key: p.inputKey, input: p.input }] : [],
  );
  const previews = await storeInputs(ctx, userId, stores);

  let admitted: { jobs: JobRow[]; batch: B | undefined };
  try {
    admitted = await ctx.db.transaction(async (trx) => {
      // The user's row is locked first (as every charge does), before the jobs' foreign keys take a share lock on it.
      await lockCovering(trx, userId, totalTenths);
      const batch = await admission.batch?.insert?.(trx);
      const rows: JobRow[] = [];
      for (const job of planned) rows.push(await chargeAndInsert(trx, admission, job));
      return { jobs: rows, batch };
    });
  } catch (err) {
    await removeInputs(
      ctx,
      userId,
      planned.map((p) => p.id),
    );
    throw err;
  }
  await enqueueJobs(
    ctx,
    tool,
    admitted.jobs,
    planned.map((p) => p.payload),
  );
  void makeInputPreviews(ctx, userId, previews);
  return admitted;
}
