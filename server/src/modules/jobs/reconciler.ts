import { JOB_MESSAGES } from '@imagestudio/contracts';
import { raiseCancelFlag } from './cancel-flag';
import type { BackgroundTask } from '../../lib/background-task';
import { failJob, recordCompleted, recordFailed, recordStarted } from './finalize.service';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import { every, withLock } from '../../lib/task-lock';
import type { JobsDeps } from './jobs.deps';

const BATCH = 200;
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

const ageSeconds = (since: Date) => (Date.now() - since.getTime()) / 1000;

/** Brings one quiet open job in line with what the queue says about it; true when its row changed. */
async function reconcileJob(ctx: JobsDeps, row: JobRow): Promise<boolean> {
  const bull = await ctx.queue.getJob(row.id);
  const state = bull ? await bull.getState() : 'missing';
  if (state === 'completed') return recordCompleted(ctx, row.id, bull!.returnvalue);
  if (state === 'failed') return recordFailed(ctx, row.id, bull!.failedReason ?? 'failed');
  if (state === 'active') {
    const started = row.status === 'queued' ? await recordStarted(ctx, row.id) : false;
    if (ageSeconds(row.started_at ?? row.created_at) <= ctx.config.JOB_RUNNING_TIMEOUT_S) return started;
    // A hung worker keeps its lock; the flag stops it at its next step and a late result is discarded.
    await raiseCancelFlag(ctx, row.id);
    return failJob(ctx, row.id, {
      message: JOB_MESSAGES.timedOut,
      detail: `running longer than ${ctx.config.JOB_RUNNING_TIMEOUT_S} s`,
    });
  }
  if (WAITING_STATES.has(state)) {
    if (ageSeconds(row.created_at) <= ctx.config.JOB_QUEUED_TIMEOUT_S) return false;
    await ctx.queue.remove(row.id);
    return failJob(ctx, row.id, {
      message: JOB_MESSAGES.timedOut,
      detail: `queued longer than ${ctx.config.JOB_QUEUED_TIMEOUT_S} s`,
    });
  }
  // Charged but not in the queue: the API stopped between its commit and the enqueue, or Redis lost it.
  return failJob(ctx, row.id, { message: JOB_MESSAGES.failed, detail: `not found in the queue (state ${state})` });
}

/** One pass over open jobs that have been quiet for JOB_RECONCILE_GRACE_S; returns how many changed. */
export async function reconcileOnce(ctx: JobsDeps): Promise<number> {
  const rows = await repo.listStale(ctx.db, ctx.config.JOB_RECONCILE_GRACE_S, BATCH);
  let changed = 0;
  for (const row of rows) {
    try {
      if (await reconcileJob(ctx, row)) changed += 1;
    } catch (err) {
      ctx.logger.warn({ err, jobId: row.id }, 'reconcile failed for job');
    }
  }
  return changed;
}

/** The reconciler as a background task: every JOB_RECONCILE_INTERVAL_S, one process at a time. */
export function reconcilerTask(ctx: JobsDeps): BackgroundTask {
  const intervalMs = ctx.config.JOB_RECONCILE_INTERVAL_S * 1000;
  const lockKey = `${ctx.config.QUEUE_PREFIX}:locks:job-reconciler`;
  return {
    name: 'job-reconciler',
    start: () =>
      every(
        intervalMs,
        async () => {
          await withLock(ctx.redis, lockKey, Math.max(intervalMs, 60_000), async () => {
            const changed = await reconcileOnce(ctx);
            if (changed > 0) ctx.logger.info({ changed }, 'reconciler settled jobs');
          });
        },
        (err) => ctx.logger.error({ err }, 'reconciler run failed'),
      ),
  };
}
