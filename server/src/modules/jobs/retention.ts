import type { BackgroundTask } from '../../lib/background-task';
import { removeJobFiles } from './job-files';
import * as repo from './jobs.repository';
import { every, withLock } from '../../lib/task-lock';
import type { JobsDeps } from './jobs.deps';

const BATCH = 500;

/**
 * Deletes the stored files of jobs that finished more than RESULT_RETENTION_DAYS ago and marks them
 * expired (the history rows stay). Returns how many jobs it expired.
 */
export async function expireOldResults(ctx: JobsDeps): Promise<number> {
  let expired = 0;
  for (;;) {
    const rows = await repo.listExpired(ctx.db, ctx.config.RESULT_RETENTION_DAYS, BATCH);
    for (const row of rows) {
      await removeJobFiles(ctx, row, 'expired_at');
      expired += 1;
    }
    if (rows.length < BATCH) return expired;
  }
}

/** Retention as a background task: every RETENTION_INTERVAL_S, one process at a time. */
export function retentionTask(ctx: JobsDeps): BackgroundTask {
  const intervalMs = ctx.config.RETENTION_INTERVAL_S * 1000;
  const lockKey = `${ctx.config.QUEUE_PREFIX}:locks:job-retention`;
  return {
    name: 'job-retention',
    start: () =>
      every(
        intervalMs,
        async () => {
          await withLock(ctx.redis, lockKey, 10 * 60_000, async () => {
            const expired = await expireOldResults(ctx);
            if (expired > 0) ctx.logger.info({ expired }, 'expired job files deleted');
          });
        },
        (err) => ctx.logger.error({ err }, 'retention run failed'),
      ),
  };
}
