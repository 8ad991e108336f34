import { JOB_MESSAGES, type JobName, type JobPayloads } from '@imagestudio/contracts';
import { serviceUnavailable } from '../../lib/errors';
import { addJobs } from '../../lib/queue';
import { fairPriority } from './fair-priority';
import { failJob } from './finalize.service';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Puts the jobs of one tool on the queue in one round trip, each with its fair-share priority; `payloads[i]` is
 * the payload of `rows[i]`, and of tool N (a payload of another tool does not compile). When the queue cannot
 * take them, each is failed and refunded, and the caller gets 503.
 */
export async function enqueueJobs<N extends JobName>(
  ctx: JobsDeps,
  tool: N,
  rows: JobRow[],
  payloads: readonly JobPayloads[N][],
): Promise<void> {
  const userId = rows[0]!.user_id;
  try {
    // The rows are already counted among the user's open jobs; the first one's rank is the number before them.
    const firstRank = (await repo.countOpenForUser(ctx.db, userId)) - rows.length;
    const jobs = rows.map((row, i) => {
      const priority = fairPriority(firstRank + i);
      return { data: payloads[i]!, opts: { jobId: row.id, ...(priority ? { priority } : {}) } };
    });
    await withTimeout(addJobs(ctx.queue, tool, jobs), ctx.config.QUEUE_ADD_TIMEOUT_MS);
  } catch (err) {
    ctx.logger.error({ err, jobs: rows.map((r) => r.id) }, 'queue unreachable: jobs refunded');
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
