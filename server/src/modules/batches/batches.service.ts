import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  BATCH_LIMITS,
  BATCH_MESSAGES,
  BATCH_TOOLS,
  JOB_MESSAGES,
  isFinalJobStatus,
  jobPayloadSchemas,
  removeBackgroundRequestSchema,
  upscaleRequestSchema,
  type BatchAccepted,
  type BatchItemView,
  type BatchPage,
  type BatchTool,
  type BatchView,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { inputKey as inputKeyOf, inputsPrefix } from '@imagestudio/runtime';
import type { AppContext } from '../../context';
import { AppError, notFound, serviceUnavailable, validationError } from '../../lib/errors';
import { applyEntry, insufficientTokens } from '../ledger/ledger.service';
import { raiseCancelFlag } from '../jobs/cancel-flag';
import { fairPriority } from '../jobs/fair-priority';
import { failJob } from '../jobs/finalize.service';
import * as jobsRepo from '../jobs/jobs.repository';
import type { JobRow } from '../jobs/jobs.repository';
import { cancelOpenJob } from '../jobs/jobs.service';
import { checkIdempotencyKey, isUniqueViolation, withTimeout } from '../jobs/submit.service';
import { checkFactor, costTenths } from '../tools/tools.pricing';
import { readToolSettings } from '../tools/tools.settings';
import { assertToolAvailable, assertUpscaleModelAvailable } from '../tools/tools.status';
import type { SubmitMeta } from '../tools/tools.service';
import { checkUpscaleOutput } from '../uploads/image-inspect';
import { batchItemCount, checkBatchFiles, inputBytes, uploadFingerprint, type BatchInput } from './batch-inputs';
import type { BatchUpload } from './batch-multipart';
import { presentAccepted, presentBatch, presentItem, summarizeBatch } from './batch-presenter';
import * as repo from './batches.repository';
import type { BatchRow } from './batches.repository';

const UUID = /^[0-9a-f-]{36}$/i;
const batchNotFound = () => notFound('Batch not found.');

/** What a batch runs: the tool, its checked options as stored on every item, and the price of one item. */
interface BatchPlan {
  tool: BatchTool;
  params: Record<string, unknown>;
  unitTenths: number;
  /** Checks beyond a single upload's, per image (the upscaled size). */
  extraCheck?: (clean: { width: number; height: number }) => void;
}

/** The tool and its options from the form fields, checked as the single tool calls check them. */
async function planOf(ctx: AppContext, fields: Record<string, string>): Promise<BatchPlan> {
  const tool = z.enum(BATCH_TOOLS).safeParse(fields.tool);
  if (!tool.success) throw validationError({ tool: [BATCH_MESSAGES.toolRequired] });
  const settings = await readToolSettings(ctx);
  if (tool.data === 'remove-background') {
    const input = removeBackgroundRequestSchema.parse(fields);
    return { tool: tool.data, params: { ...input }, unitTenths: costTenths(settings, 'remove-background') };
  }
  const input = upscaleRequestSchema.parse(fields);
  const factor = checkFactor(settings, input.factor);
  await assertUpscaleModelAvailable(ctx, input.model);
  return {
    tool: 'upscale',
    params: { factor, model: input.model, output_format: input.output_format },
    unitTenths: costTenths(settings, 'upscale', 1, input.model),
    extraCheck: (clean) => checkUpscaleOutput(clean.width, clean.height, factor),
  };
}

/** The queue payload of one item, from the options stored on it (a retry rebuilds it the same way). */
function payloadOf(row: Pick<JobRow, 'id' | 'user_id' | 'tool' | 'params' | 'input_key'>, requestId?: string) {
  const p = row.params;
  const base = { jobId: row.id, userId: row.user_id, requestId: requestId?.slice(0, 100), inputKey: row.input_key! };
  if (row.tool === 'upscale') {
    return jobPayloadSchemas.upscale.parse({
      ...base,
      factor: p.factor,
      model: p.model,
      outputFormat: p.output_format,
    });
  }
  return jobPayloadSchemas['remove-background'].parse({
    ...base,
    outputFormat: p.output_format,
    backgroundColor: p.background_color ?? undefined,
    maskOnly: p.mask_only ?? false,
  });
}

/**
 * Puts jobs on the queue with their fair-share priorities (one round trip). When the queue cannot take them,
 * each is failed and refunded, and the caller gets 503.
 */
async function enqueue(ctx: AppContext, userId: string, rows: JobRow[], requestId?: string): Promise<void> {
  try {
    // The rows are already counted among the user's open jobs; the first one's rank is the number before them.
    const firstRank = (await jobsRepo.countOpenForUser(ctx.db, userId)) - rows.length;
    await withTimeout(
      ctx.queue.addBulk(
        rows.map((row, i) => {
          const priority = fairPriority(firstRank + i);
          return {
            name: row.tool,
            data: payloadOf(row, requestId),
            opts: { jobId: row.id, ...(priority ? { priority } : {}) },
          };
        }),
      ),
      ctx.config.QUEUE_ADD_TIMEOUT_MS,
    );
  } catch (err) {
    ctx.logger.error({ err, jobs: rows.length }, 'queue unreachable: batch items refunded');
    for (const row of rows) {
      ctx.services.jobMetrics.rejected.inc({ tool: row.tool });
      await failJob(ctx, row.id, {
        message: JOB_MESSAGES.queueBusy,
        detail: `enqueue failed: ${(err as Error).message}`,
      });
    }
    throw serviceUnavailable(JOB_MESSAGES.queueBusy);
  }
}

async function replayOf(ctx: AppContext, userId: string, key: string, hash: string): Promise<BatchAccepted | null> {
  const existing = await repo.findByIdempotencyKey(ctx.db, userId, key);
  if (!existing) return null;
  if (existing.request_hash !== hash) throw validationError({ 'Idempotency-Key': [JOB_MESSAGES.idempotencyMismatch] });
  return presentAccepted(existing, await repo.itemsOf(ctx.db, [existing.id]));
}

/** A cheap read first, so a batch that cannot be paid for is refused before its files are stored. */
async function assertAffordable(ctx: AppContext, userId: string, costTenths: number): Promise<void> {
  const row = await ctx.db('users').where({ id: userId }).first('balance_tenths');
  const balance = Number(row?.balance_tenths ?? 0);
  if (balance < costTenths) throw insufficientTokens(costTenths, balance);
}

/** Stores the clean inputs under each item's job id (a few at a time); on failure removes what was stored. */
async function storeInputs(ctx: AppContext, userId: string, jobIds: string[], inputs: BatchInput[]): Promise<string[]> {
  const keys = inputs.map((input, i) =>
    inputKeyOf({ userId, jobId: jobIds[i]! }, input.clean.format === 'jpeg' ? 'jpg' : input.clean.format),
  );
  let next = 0;
  const work = async () => {
    while (next < inputs.length) {
      const i = next++;
      await ctx.storage.put(keys[i]!, await inputBytes(inputs[i]!), inputs[i]!.clean.contentType);
    }
  };
  try {
    await Promise.all(Array.from({ length: 4 }, work));
  } catch (err) {
    await removeInputs(ctx, userId, jobIds);
    throw err;
  }
  return keys;
}

async function removeInputs(ctx: AppContext, userId: string, jobIds: string[]): Promise<void> {
  await Promise.all(
    jobIds.map((jobId) => ctx.storage.deletePrefix(inputsPrefix({ userId, jobId })).catch(() => undefined)),
  );
}

export interface BatchSubmitOutcome {
  batch: BatchAccepted;
  replayed: boolean;
}

/**
 * POST /api/batches. In order: the tool and options (422), an Idempotency-Key replay (nothing new charged),
 * the tool's availability (503), the price against the balance (402 when the files' count is known), every
 * file through the upload checks (one 422 naming each bad file), the balance again for the exact count, the
 * clean inputs to S3, then ONE transaction for the batch row, every item's job row and its own charge
 * `job:<id>:charge` (a short balance rolls all of it back: 402, nothing charged), then the queue.
 */
export async function submitBatch(ctx: AppContext, upload: BatchUpload, meta: SubmitMeta): Promise<BatchSubmitOutcome> {
  const key = meta.idempotencyKey;
  checkIdempotencyKey(key);
  const plan = await planOf(ctx, upload.fields);
  const hash = key
    ? createHash('sha256')
        .update(JSON.stringify({ tool: plan.tool, params: plan.params }))
        .update(uploadFingerprint(upload))
        .digest('hex')
    : null;
  if (key && hash) {
    const replay = await replayOf(ctx, meta.userId, key, hash);
    if (replay) return { batch: replay, replayed: true };
  }
  await assertToolAvailable(ctx, plan.tool);
  // The files' count (a ZIP's from its central directory), before anything is inflated or checked.
  await assertAffordable(ctx, meta.userId, plan.unitTenths * (await batchItemCount(upload)));

  const inputs = await checkBatchFiles(upload, plan.extraCheck);
  if (inputs.length > BATCH_LIMITS.maxItems) throw validationError({ images: [BATCH_MESSAGES.tooManyFiles] });
  const totalTenths = plan.unitTenths * inputs.length;
  await assertAffordable(ctx, meta.userId, totalTenths);

  const batchId = randomUUID();
  const jobIds = inputs.map(() => randomUUID());
  const keys = await storeInputs(ctx, meta.userId, jobIds, inputs);

  let batch: BatchRow;
  let rows: JobRow[];
  try {
    ({ batch, rows } = await ctx.db.transaction(async (trx) => {
      // The user's row is locked first (as every charge does), before the batch's foreign key takes a share lock on it.
      const balanceBefore = Number(
        (await trx('users').where({ id: meta.userId }).forUpdate().first('balance_tenths'))?.balance_tenths ?? 0,
      );
      if (balanceBefore < totalTenths) throw insufficientTokens(totalTenths, balanceBefore);
      const batchRow = await repo.insertBatch(trx, {
        id: batchId,
        user_id: meta.userId,
        tool: plan.tool,
        params: plan.params,
        item_count: inputs.length,
        idempotency_key: key ?? null,
        request_hash: hash,
        request_id: meta.requestId ?? null,
      });
      const jobRows: JobRow[] = [];
      for (const [i, input] of inputs.entries()) {
        const jobId = jobIds[i]!;
        // Each item is charged by its own entry, so a failed or cancelled item refunds only itself.
        await applyEntry(trx, {
          userId: meta.userId,
          deltaTenths: -plan.unitTenths,
          kind: 'spend',
          idempotencyKey: `job:${jobId}:charge`,
          reason: `${plan.tool} job`,
          metadata: { job_id: jobId, tool: plan.tool, batch_id: batchId },
        });
        jobRows.push(
          await jobsRepo.insertJob(trx, {
            id: jobId,
            user_id: meta.userId,
            tool: plan.tool,
            params: plan.params,
            cost_tenths: plan.unitTenths,
            input_key: keys[i]!,
            input_name: input.fileName,
            input_width: input.clean.width,
            input_height: input.clean.height,
            idempotency_key: null,
            request_hash: null,
            request_id: meta.requestId ?? null,
            batch_id: batchId,
            batch_position: i,
          }),
        );
      }
      return { batch: batchRow, rows: jobRows };
    }));
  } catch (err) {
    await removeInputs(ctx, meta.userId, jobIds);
    // Two requests with one Idempotency-Key raced: the loser answers with the winner's batch.
    if (key && hash && isUniqueViolation(err)) {
      const replay = await replayOf(ctx, meta.userId, key, hash);
      if (replay) return { batch: replay, replayed: true };
    }
    throw err;
  }

  await enqueue(ctx, meta.userId, rows, meta.requestId);
  return { batch: presentAccepted(batch, rows), replayed: false };
}

/** The user's batch; another user's batch and an unknown id are the same 404. */
export async function ownedBatch(ctx: AppContext, userId: string, batchId: string): Promise<BatchRow> {
  if (!UUID.test(batchId)) throw batchNotFound();
  const batch = await repo.findForUser(ctx.db, batchId, userId);
  if (!batch) throw batchNotFound();
  return batch;
}

export async function getBatch(ctx: AppContext, userId: string, batchId: string): Promise<BatchView> {
  const batch = await ownedBatch(ctx, userId, batchId);
  return presentBatch(ctx, batch, await repo.itemsOf(ctx.db, [batch.id]));
}

/** GET /api/batches?page=: the user's batches, newest first. */
export async function listBatches(ctx: AppContext, userId: string, page: number): Promise<BatchPage> {
  const perPage = BATCH_LIMITS.perPage;
  const { rows, total } = await repo.listForUser(ctx.db, userId, page, perPage);
  const items = await repo.itemsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((batch) =>
      summarizeBatch(
        batch,
        items.filter((i) => i.batch_id === batch.id),
      ),
    ),
    page,
    per_page: perPage,
    total,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  };
}

/**
 * POST /api/batches/{id}/cancel: every item not yet ended is cancelled and refunded by itself (a running
 * one when its worker stops). The cancel flags go up for all of them first, so a worker that takes one of
 * them meanwhile stops at once. 409 when every item had already ended.
 */
export async function cancelBatch(ctx: AppContext, userId: string, batchId: string): Promise<BatchView> {
  const batch = await ownedBatch(ctx, userId, batchId);
  const open = (await repo.itemsOf(ctx.db, [batch.id])).filter((r) => !isFinalJobStatus(r.status));
  if (open.length === 0) throw new AppError('conflict', BATCH_MESSAGES.alreadyFinished);
  await Promise.all(open.map((r) => raiseCancelFlag(ctx, r.id)));
  for (const row of open) await cancelOpenJob(ctx, row.id);
  return getBatch(ctx, userId, batchId);
}

/**
 * POST /api/batches/{id}/items/{itemId}/retry: runs a failed or cancelled item again as a new item of the
 * batch, with a copy of its input and a new charge at today's price; the old item stays in history (and in
 * the batch's money) but leaves the batch's item list. One retry per item (409 for a second).
 */
export async function retryItem(
  ctx: AppContext,
  userId: string,
  batchId: string,
  itemId: string,
  meta: SubmitMeta,
): Promise<BatchItemView> {
  const batch = await ownedBatch(ctx, userId, batchId);
  if (!UUID.test(itemId)) throw notFound('Item not found.');
  const old = (await repo.itemsOf(ctx.db, [batch.id])).find((r) => r.id === itemId);
  if (!old) throw notFound('Item not found.');
  if (old.status !== 'failed' && old.status !== 'cancelled')
    throw new AppError('conflict', BATCH_MESSAGES.retryNotFailed);
  if (!old.input_key || old.deleted_at || old.expired_at)
    throw new AppError('conflict', 'The image of this item is no longer stored. Upload it again.');

  await assertToolAvailable(ctx, old.tool);
  const settings = await readToolSettings(ctx);
  const model = old.tool === 'upscale' ? (old.params.model as UpscaleModel) : undefined;
  if (model) await assertUpscaleModelAvailable(ctx, model);
  const price = costTenths(settings, old.tool, 1, model);
  await assertAffordable(ctx, userId, price);

  const jobId = randomUUID();
  const key = inputKeyOf({ userId, jobId }, old.input_key.split('.').pop() ?? 'png');
  // A copy, so deleting either job's files never takes the other's input.
  const bytes = await ctx.storage.get(old.input_key);
  const ext = old.input_key.split('.').pop();
  await ctx.storage.put(key, bytes, ext === 'jpg' ? 'image/jpeg' : `image/${ext}`);
  let row: JobRow;
  try {
    row = await ctx.db.transaction(async (trx) => {
      await applyEntry(trx, {
        userId,
        deltaTenths: -price,
        kind: 'spend',
        idempotencyKey: `job:${jobId}:charge`,
        reason: `${old.tool} job`,
        metadata: { job_id: jobId, tool: old.tool, batch_id: batch.id, retry_of: old.id },
      });
      return jobsRepo.insertJob(trx, {
        id: jobId,
        user_id: userId,
        tool: old.tool,
        params: old.params,
        cost_tenths: price,
        input_key: key,
        input_name: old.input_name,
        input_width: old.input_width,
        input_height: old.input_height,
        idempotency_key: null,
        request_hash: null,
        request_id: meta.requestId ?? null,
        batch_id: batch.id,
        batch_position: old.batch_position,
        retry_of: old.id,
      });
    });
  } catch (err) {
    await removeInputs(ctx, userId, [jobId]);
    if (isUniqueViolation(err)) throw new AppError('conflict', 'This item was already retried.');
    throw err;
  }
  await enqueue(ctx, userId, [row], meta.requestId);
  return presentItem(ctx, row);
}
