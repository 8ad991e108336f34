import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import {
  BATCH_LIMITS,
  BATCH_MESSAGES,
  BATCH_TOOLS,
  isFinalJobStatus,
  type BatchAccepted,
  type BatchItemView,
  type BatchPage,
  type BatchTool,
  type BatchView,
} from '@imagestudio/contracts';
import { AppError, notFound, validationError } from '../../lib/errors';
import { assertAffordable } from '../ledger';
import {
  admitJobs,
  type JobInput,
  storedJobInput,
  raiseCancelFlag,
  checkIdempotencyKey,
  isUniqueViolation,
  oncePerKey,
  requestFingerprint,
  cancelOpenJob,
} from '../jobs';
import { toolDefinition, type AnyToolDefinition, readToolSettings } from '../tool-definitions';
import { inspectFileParts, withFileFlags } from '../uploads';
import { assertToolAvailable } from '../workers';
import type { SubmitMeta } from '../tools';
import { batchItemCount, checkBatchFiles, inputBytes, uploadFingerprint, type BatchInput } from './batch-inputs';
import type { BatchUpload } from './batch-multipart';
import { presentAccepted, presentBatch, presentItem, summarizeBatch } from './batch-presenter';
import * as repo from './batches.repository';
import type { BatchRow } from './batches.repository';
import type { BatchesDeps } from './batches.deps';

const UUID = /^[0-9a-f-]{36}$/i;
const batchNotFound = () => notFound('Batch not found.');

/** What a batch runs: the tool, its checked options as stored on every item, and the price of one item. */
interface BatchPlan {
  tool: BatchTool;
  definition: AnyToolDefinition;
  params: Record<string, unknown>;
  unitTenths: number;
}

/** The tool and its options from the form fields, checked as the single tool calls check them. */
async function planOf(ctx: BatchesDeps, upload: BatchUpload): Promise<BatchPlan> {
  const { fields } = upload;
  const tool = z.enum(BATCH_TOOLS).safeParse(fields.tool);
  if (!tool.success) throw validationError({ tool: [BATCH_MESSAGES.toolRequired] });
  const definition = toolDefinition(tool.data);
  const takes = definition.contract.fileFields ?? [];
  // A further file this tool does not take would be silently left out: refused instead.
  for (const field of Object.keys(upload.files))
    if (!takes.includes(field)) throw validationError({ [field]: [BATCH_MESSAGES.fileNotTaken] });
  const settings = await readToolSettings(ctx);
  const params = definition.parse(withFileFlags(fields, takes, Object.keys(upload.files)), settings);
  await definition.assertRunnable?.(ctx, params);
  return { tool: tool.data, definition, params, unitTenths: definition.costTenths(settings, params) };
}

/** A checked batch file as a job's input: stored as sent, its bytes read from the upload's temporary file. */
function batchJobInput(input: BatchInput): JobInput {
  return {
    bytes: () => inputBytes(input),
    extension: input.clean.format === 'jpeg' ? 'jpg' : input.clean.format,
    contentType: input.clean.contentType,
    name: input.fileName,
    width: input.clean.width,
    height: input.clean.height,
  };
}

/** The bytes of the further files of a batch (read from their temporary files). */
async function batchFileBytes(upload: BatchUpload): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  for (const [field, file] of Object.entries(upload.files)) {
    if (!file.path) throw validationError({ [field]: [BATCH_MESSAGES.tooLarge] });
    out[field] = await fs.promises.readFile(file.path);
  }
  return out;
}

export interface BatchSubmitOutcome {
  batch: BatchAccepted;
  replayed: boolean;
}

/**
 * POST /api/batches. In order: the tool and options (422), an Idempotency-Key replay (nothing new charged),
 * the tool's availability (503), the price against the balance (402 when the files' count is known), every
 * file through the upload checks (one 422 naming each bad file), then admitJobs: the balance again for the
 * exact count, the clean inputs to S3, ONE transaction for the batch row and every item's job row and its own
 * charge (a short balance rolls all of it back: 402, nothing charged), then the queue.
 */
export async function submitBatch(
  ctx: BatchesDeps,
  upload: BatchUpload,
  meta: SubmitMeta,
): Promise<BatchSubmitOutcome> {
  const key = meta.idempotencyKey;
  checkIdempotencyKey(key);
  const { tool, definition, params, unitTenths } = await planOf(ctx, upload);
  const hash = key ? requestFingerprint(tool, params, uploadFingerprint(upload)) : null;
  const find = (k: string) => repo.findByIdempotencyKey(ctx.db, meta.userId, k);

  const outcome = await oncePerKey({ key, hash, find }, async () => {
    await assertToolAvailable(ctx, tool);
    // The files' count (a ZIP's from its central directory), before anything is inflated or checked.
    await assertAffordable(ctx.db, meta.userId, unitTenths * (await batchItemCount(upload)));
    const { inputs, skipped } = await checkBatchFiles(upload, (clean) => definition.checkImage?.(params, clean));
    if (inputs.length > BATCH_LIMITS.maxItems) throw validationError({ images: [BATCH_MESSAGES.tooManyFiles] });
    // One background image (say) for every item, checked and cleaned once, stored with each item's input.
    const files = await inspectFileParts(await batchFileBytes(upload));

    const batchId = randomUUID();
    const { jobs, batch } = await admitJobs(ctx, {
      userId: meta.userId,
      tool,
      requestId: meta.requestId,
      batch: {
        id: batchId,
        insert: (trx) =>
          repo.insertBatch(trx, {
            id: batchId,
            user_id: meta.userId,
            tool,
            params,
            item_count: inputs.length,
            idempotency_key: key ?? null,
            request_hash: hash,
            request_id: meta.requestId ?? null,
            skipped,
          }),
      },
      // Each item is charged by its own entry, so a failed or cancelled item refunds only itself.
      jobs: inputs.map((input, i) => ({
        params,
        costTenths: unitTenths,
        input: { ...batchJobInput(input), files },
        batchPosition: i,
      })),
    });
    return presentAccepted(batch!, jobs);
  });
  if (outcome.replayed)
    return {
      batch: presentAccepted(outcome.earlier, await repo.itemsOf(ctx.db, [outcome.earlier.id])),
      replayed: true,
    };
  return { batch: outcome.value, replayed: false };
}

/** The user's batch; another user's batch and an unknown id are the same 404. */
export async function ownedBatch(ctx: BatchesDeps, userId: string, batchId: string): Promise<BatchRow> {
  if (!UUID.test(batchId)) throw batchNotFound();
  const batch = await repo.findForUser(ctx.db, batchId, userId);
  if (!batch) throw batchNotFound();
  return batch;
}

export async function getBatch(ctx: BatchesDeps, userId: string, batchId: string): Promise<BatchView> {
  const batch = await ownedBatch(ctx, userId, batchId);
  return presentBatch(ctx, batch, await repo.itemsOf(ctx.db, [batch.id]));
}

/** GET /api/batches?page=: the user's batches, newest first. */
export async function listBatches(ctx: BatchesDeps, userId: string, page: number): Promise<BatchPage> {
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
export async function cancelBatch(ctx: BatchesDeps, userId: string, batchId: string): Promise<BatchView> {
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
  ctx: BatchesDeps,
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
  const definition = toolDefinition(old.tool);
  await definition.assertRunnable?.(ctx, old.params);
  const settings = await readToolSettings(ctx);
  // The further files the item's params name (a background image) are copied with its input.
  const fileFields = (definition.contract.fileFields ?? []).filter((field) => old.params[field] === true);
  const input = storedJobInput(ctx, { userId, jobId: old.id }, { ...old, input_key: old.input_key }, fileFields);
  const retried = await admitJobs(ctx, {
    userId,
    tool: old.tool,
    requestId: meta.requestId,
    batch: { id: batch.id },
    jobs: [
      {
        params: old.params,
        // Today's price, not the one the item was charged.
        costTenths: definition.costTenths(settings, old.params),
        input,
        batchPosition: old.batch_position ?? undefined,
        retryOf: old.id,
      },
    ],
  }).catch((err: unknown) => {
    // The unique index on retry_of: this item was retried meanwhile.
    throw isUniqueViolation(err) ? new AppError('conflict', 'This item was already retried.') : err;
  });
  return presentItem(ctx, retried.jobs[0]!);
}
