import type { Request, Response } from 'express';
import { BATCH_SSE_EVENTS, isFinalBatchStatus, type BatchView } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { presentBatch } from './batch-presenter';
import * as repo from './batches.repository';
import type { BatchRow } from './batches.repository';

/** Changes written by another API process reach this stream through this poll. */
const POLL_MS = 1000;
/** A comment line keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** What the stream compares to decide whether to send (URLs are re-signed on every read). */
const fingerprint = (v: BatchView) =>
  JSON.stringify([v.status, v.counts, v.items.map((i) => [i.id, i.status, i.progress, i.stage, i.queue_position, i.error, i.refunded, i.results.length])]);

/**
 * Server-Sent Events for one batch (already checked to be the caller's): `event: batch` with the whole
 * BatchView at once and whenever an item changes, then `event: end` once every item has ended, and the
 * stream closes. Items' changes in this process push at once; others arrive with the next poll.
 */
export function streamBatch(ctx: AppContext, req: Request, res: Response, batch: BatchRow): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();

  let last = '';
  let closed = false;
  let busy = false;
  let again = false;
  let watched: string[] = [];
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const watch = (ids: string[]) => {
    for (const id of watched) ctx.services.jobUpdates.off(id, push);
    watched = ids;
    for (const id of watched) ctx.services.jobUpdates.on(id, push);
  };

  const cleanup = () => {
    closed = true;
    clearInterval(poll);
    clearInterval(keepalive);
    watch([]);
  };
  function push(): void {
    if (closed) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    void (async () => {
      const rows = await repo.itemsOf(ctx.db, [batch.id]);
      if (closed) return;
      // A retry adds an item: follow whatever the batch holds now.
      if (rows.length !== watched.length) watch(rows.map((r) => r.id));
      const view = await presentBatch(ctx, batch, rows);
      const print = fingerprint(view);
      if (print !== last) {
        last = print;
        send(BATCH_SSE_EVENTS.update, view);
      }
      if (isFinalBatchStatus(view.status)) {
        send(BATCH_SSE_EVENTS.end, view);
        cleanup();
        res.end();
      }
    })()
      .catch((err: unknown) => ctx.logger.warn({ err, batchId: batch.id }, 'batch stream read failed'))
      .finally(() => {
        busy = false;
        if (again && !closed) {
          again = false;
          push();
        }
      });
  }

  const poll = setInterval(push, POLL_MS);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  req.on('close', cleanup);
  res.write('retry: 2000\n\n');
  push();
}
