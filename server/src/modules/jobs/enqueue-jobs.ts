import { JOB_MESSAGES } from '@imagestudio/contracts';
import { serviceUnavailable } from '../../lib/errors';
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
 * Puts the jobs on the queue in one round trip, each with its fair-share priority. When the queue cannot take
 * them, each is failed and refunded, and the caller gets 503.
 */
export async function enqueueJobs(ctx: JobsDeps, rows: JobRow[], payloads: object[]): Promise<void> {
  const userId = rows[0]!.user_id;
  try {
    // The rows are already counted among the user's open jobs; the first one's rank is the number before them.
    const firstRank = (await repo.countOpenForUser(ctx.db, userId)) - rows.length;
    const jobs = rows.map((row, i) => {
      const priority = fairPriority(firstRank + i);
      return { name: row.tool, data: payloads[i], opts: { jobId: row.id, ...(priority ? { priority } : {}) } };
    });
    // A single job goes through `add`: right after a queue Redis outage `addBulk` failed where `add` succeeded
    // (health/redis-outage.test.ts).
    const [one] = jobs;
    const added: Promise<unknown> =
      jobs.length === 1 && one ? ctx.queue.add(one.name, one.data, one.opts) : ctx.queue.addBulk(jobs);
    await withTimeout(added, ctx.config.QUEUE_ADD_TIMEOUT_MS);
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
