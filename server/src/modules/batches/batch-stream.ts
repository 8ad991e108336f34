import type { Request, Response } from 'express';
import { BATCH_SSE_EVENTS, isFinalBatchStatus, type BatchView } from '@imagestudio/contracts';
import { openSnapshotStream } from '../../http/snapshot-stream';
import { presentBatch } from './batch-presenter';
import * as repo from './batches.repository';
import type { BatchRow } from './batches.repository';
import type { BatchesDeps } from './batches.deps';

/** What the stream compares to decide whether to send (URLs are re-signed on every read). */
const fingerprint = (v: BatchView) =>
  JSON.stringify([
    v.status,
    v.counts,
    v.items.map((i) => [i.id, i.status, i.progress, i.stage, i.queue_position, i.error, i.refunded, i.results.length]),
  ]);

/**
 * Server-Sent Events for one batch (already checked to be the caller's): `event: batch` with the whole
 * BatchView at once and whenever an item changes, then `event: end` once every item has ended, and the
 * stream closes. Items' changes in this process push at once; others arrive with the next poll.
 */
export function streamBatch(ctx: BatchesDeps, req: Request, res: Response, batch: BatchRow): void {
  let watched: string[] = [];
  const watch = (ids: string[]) => {
    for (const id of watched) ctx.services.jobUpdates.off(id, stream.push);
    watched = ids;
    for (const id of watched) ctx.services.jobUpdates.on(id, stream.push);
  };
  const stream = openSnapshotStream<BatchView>(req, res, {
    event: BATCH_SSE_EVENTS.update,
    read: async () => {
      const rows = await repo.itemsOf(ctx.db, [batch.id]);
      // A retry adds an item: follow whatever the batch holds now.
      if (rows.length !== watched.length) watch(rows.map((r) => r.id));
      return presentBatch(ctx, batch, rows);
    },
    fingerprint,
    isFinal: (view) => isFinalBatchStatus(view.status),
    onReadError: (err) => ctx.logger.warn({ err, batchId: batch.id }, 'batch stream read failed'),
  });
  stream.onClose(() => watch([]));
  stream.push();
}
