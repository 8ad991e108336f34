import { QueueEvents } from 'bullmq';
import { QUEUE_NAME, isFinalJobStatus } from '@imagestudio/contracts';
import { queueConnection, throttledErrorLog } from '@imagestudio/runtime';
import { raiseCancelFlag } from './cancel-flag';
import type { BackgroundTask } from '../../lib/background-task';
import { recordCompleted, recordFailed, recordProgress, recordStarted } from './finalize.service';
import * as repo from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

/**
 * A worker picked up a job the server had already ended (refunded after a queue timeout, timed out by
 * the reconciler): ask it to stop at its next step, so no work is done for a refunded job.
 */
async function stopIfEnded(ctx: JobsDeps, jobId: string): Promise<void> {
  const row = await repo.findById(ctx.db, jobId);
  if (row && isFinalJobStatus(row.status) && row.status !== 'succeeded') {
    await raiseCancelFlag(ctx, jobId);
  }
}

/**
 * Listens to BullMQ's queue events and turns them into job state: active -> running, progress,
 * completed -> succeeded, failed (for good: BullMQ emits `failed` only once attempts are used up or on
 * UnrecoverableError) -> failed/cancelled + refund. Every API process may run one; all writes are
 * idempotent, and the reconciler repairs anything missed while no listener ran.
 */
function listen(ctx: JobsDeps): { events: QueueEvents; close: () => Promise<void> } {
  // QueueEvents blocks its connection, so it gets its own; BullMQ does not close a client it was given.
  const connection = ctx.queueRedis.duplicate();
  // Read from "now" rather than from whenever the blocking read starts, so nothing emitted during
  // start-up is missed (QueueEvents' default "$" would skip it).
  const events = new QueueEvents(QUEUE_NAME, {
    connection: queueConnection(connection),
    prefix: ctx.config.QUEUE_PREFIX,
    lastEventId: `${Date.now()}-0`,
  });
  const log = ctx.logger.child({ module: 'job-events' });
  const guard = (what: string, jobId: string, work: () => Promise<unknown>) => {
    work().catch((err: unknown) =>
      log.error({ err, jobId, event: what }, 'job event not recorded (the reconciler will retry)'),
    );
  };
  events.on(
    'error',
    throttledErrorLog((err, skipped) => log.error({ err: err.message, skipped }, 'queue events error')),
  );
  events.on('active', ({ jobId }) =>
    guard('active', jobId, async () => {
      if (!(await recordStarted(ctx, jobId))) await stopIfEnded(ctx, jobId);
    }),
  );
  events.on('progress', ({ jobId, data }) => guard('progress', jobId, () => recordProgress(ctx, jobId, data)));
  events.on('completed', ({ jobId, returnvalue }) =>
    guard('completed', jobId, () => recordCompleted(ctx, jobId, returnvalue)),
  );
  events.on('failed', ({ jobId, failedReason }) =>
    guard('failed', jobId, () => recordFailed(ctx, jobId, failedReason)),
  );
  const close = async () => {
    await events.close();
    if (connection.isOpen) await connection.quit().catch(() => connection.destroy());
  };
  return { events, close };
}

/** The listener as a background task of main.ts. */
export function jobEventsTask(ctx: JobsDeps): BackgroundTask {
  return {
    name: 'job-events',
    start() {
      return listen(ctx).close;
    },
  };
}

/** Starts the listener and resolves once it is connected (tests start it explicitly). */
export async function startJobEvents(ctx: JobsDeps): Promise<() => Promise<void>> {
  const { events, close } = listen(ctx);
  await events.waitUntilReady();
  return close;
}
