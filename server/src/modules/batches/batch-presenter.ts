import {
  BATCH_PATHS,
  batchStatusOf,
  tenthsToTokens,
  type BatchAccepted,
  type BatchCounts,
  type BatchItemView,
  type BatchSummary,
  type BatchView,
} from '@imagestudio/contracts';
import { cutoutConfidenceOf, presentInput, presentResults, queuePosition, type JobRow } from '../jobs';
import type { BatchRow } from './batches.repository';
import type { BatchesDeps } from './batches.deps';

/** The items the batch shows: each input's latest attempt (an item replaced by a retry is left out). */
export function currentItems(rows: JobRow[]): JobRow[] {
  const replaced = new Set(rows.map((r) => r.retry_of).filter((id): id is string => id !== null));
  return rows.filter((r) => !replaced.has(r.id));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Status, counts and money of a batch from all its jobs (retried ones count for money, not for status). */
export function summarizeBatch(batch: BatchRow, rows: JobRow[]): BatchSummary {
  const items = currentItems(rows);
  const counts: BatchCounts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const item of items) counts[item.status] += 1;
  const status = batchStatusOf(items.map((i) => i.status));
  const finished = items.map((i) => i.finished_at?.getTime() ?? null);
  const finishedAt =
    finished.length > 0 && finished.every((t) => t !== null) ? new Date(Math.max(...(finished as number[]))) : null;
  return {
    id: batch.id,
    tool: batch.tool,
    status,
    params: batch.params,
    cost: tenthsToTokens(rows.reduce((sum, r) => sum + Number(r.cost_tenths), 0)),
    refunded: tenthsToTokens(rows.filter((r) => r.refunded).reduce((sum, r) => sum + Number(r.cost_tenths), 0)),
    total: items.length,
    counts,
    skipped: batch.skipped ?? [],
    created_at: batch.created_at.toISOString(),
    finished_at: iso(finishedAt),
  };
}

/** One item with presigned URLs for its input (thumbnail) and results, none once its files are gone. */
export async function presentItem(ctx: BatchesDeps, row: JobRow): Promise<BatchItemView> {
  const results = await presentResults(ctx, row);
  return {
    id: row.id,
    file_name: row.input_name ?? 'image',
    status: row.status,
    progress: row.progress,
    stage: row.stage,
    queue_position: row.status === 'queued' ? await queuePosition(ctx, row.id) : null,
    cost: tenthsToTokens(row.cost_tenths),
    refunded: row.refunded,
    error: row.error,
    ...(await presentInput(ctx, row)),
    results,
    cutout_confidence: cutoutConfidenceOf(row),
    retry_of: row.retry_of,
    created_at: row.created_at.toISOString(),
    finished_at: iso(row.finished_at),
  };
}

/** GET /api/batches/{id}: the summary plus every current item. */
export async function presentBatch(ctx: BatchesDeps, batch: BatchRow, rows: JobRow[]): Promise<BatchView> {
  return {
    ...summarizeBatch(batch, rows),
    items: await Promise.all(currentItems(rows).map((row) => presentItem(ctx, row))),
    zip_url: BATCH_PATHS.zip(batch.id),
  };
}

/** The 202 of POST /api/batches (also the reply of an Idempotency-Key replay). */
export function presentAccepted(batch: BatchRow, rows: JobRow[]): BatchAccepted {
  const summary = summarizeBatch(batch, rows);
  return {
    id: batch.id,
    tool: batch.tool,
    status: summary.status,
    cost: summary.cost,
    created_at: summary.created_at,
    items: currentItems(rows).map((r) => ({ id: r.id, file_name: r.input_name ?? 'image', status: r.status })),
    skipped: batch.skipped ?? [],
  };
}
