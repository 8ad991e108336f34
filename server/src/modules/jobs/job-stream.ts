import type { Request, Response } from 'express';
import { isFinalJobStatus, type JobView } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { presentJob } from './job-presenter';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';

/** Changes written by another API process reach this stream through this poll. */
const POLL_MS = 1000;
/** A comment line keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** What the stream compares to decide whether to send (URLs are re-signed on every read). */
const fingerprint = (v: JobView) => JSON.stringify([v.status, v.progress, v.stage, v.queue_position, v.error, v.refunded, v.results.length]);

/**
 * Server-Sent Events for one job (already checked to be the caller's): an `event: job` with the whole
 * job at once and whenever its status, progress or queue position changes, then `event: end` with the
 * final state, and the stream closes.
 */
export function streamJob(ctx: AppContext, req: Request, res: Response, first: JobRow): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx would otherwise buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();

  let last = '';
  let closed = false;
  let busy = false;
  let again = false;
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  const cleanup = () => {
    closed = true;
    clearInterval(poll);
    clearInterval(keepalive);
    ctx.services.jobUpdates.off(first.id, push);
  };
  const push = () => {
    if (closed) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    void (async () => {
      const row = await repo.findById(ctx.db, first.id);
      if (!row || closed) return;
      const view = await presentJob(ctx, row);
      const print = fingerprint(view);
      if (print !== last) {
        last = print;
        send('job', view);
      }
      if (isFinalJobStatus(row.status)) {
        send('end', view);
        cleanup();
        res.end();
      }
    })()
      .catch((err: unknown) => ctx.logger.warn({ err, jobId: first.id }, 'job stream read failed'))
      .finally(() => {
        busy = false;
        if (again && !closed) {
          again = false;
          push();
        }
      });
  };

  const poll = setInterval(push, POLL_MS);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  ctx.services.jobUpdates.on(first.id, push);
  req.on('close', cleanup);
  res.write('retry: 2000\n\n');
  push();
}
