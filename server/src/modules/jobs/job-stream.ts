import type { Request, Response } from 'express';
import { isFinalJobStatus, type JobView } from '@imagestudio/contracts';
import { openSnapshotStream } from '../../http/snapshot-stream';
import { presentJob } from './job-presenter';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

/** What the stream compares to decide whether to send (URLs are re-signed on every read). */
const fingerprint = (v: JobView) =>
  JSON.stringify([v.status, v.progress, v.stage, v.queue_position, v.error, v.refunded, v.results.length]);

/**
 * Server-Sent Events for one job (already checked to be the caller's): an `event: job` with the whole
 * job at once and whenever its status, progress or queue position changes, then `event: end` with the
 * final state, and the stream closes. Changes made in this process push at once.
 */
export function streamJob(ctx: JobsDeps, req: Request, res: Response, first: JobRow): void {
  const stream = openSnapshotStream<JobView>(req, res, {
    event: 'job',
    read: async () => {
      const row = await repo.findById(ctx.db, first.id);
      return row ? presentJob(ctx, row) : null;
    },
    fingerprint,
    isFinal: (view) => isFinalJobStatus(view.status),
    onReadError: (err) => ctx.logger.warn({ err, jobId: first.id }, 'job stream read failed'),
  });
  ctx.services.jobUpdates.on(first.id, stream.push);
  stream.onClose(() => ctx.services.jobUpdates.off(first.id, stream.push));
  stream.push();
}
