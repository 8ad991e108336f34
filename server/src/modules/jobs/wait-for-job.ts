import { isFinalJobStatus } from '@imagestudio/contracts';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

/** Changes made by another API process are seen through this poll; this process's wake the wait at once. */
const POLL_MS = 500;

/** Resolves on the job's next change notice in this process, after `ms`, or when `signal` aborts. */
function nextChange(ctx: JobsDeps, jobId: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      ctx.services.jobUpdates.off(jobId, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    ctx.services.jobUpdates.on(jobId, done);
    signal?.addEventListener('abort', done);
  });
}

/**
 * The job's row once it has ended, or its latest row when `timeoutMs` has passed or `signal` aborted
 * (the client went away).
 */
export async function waitForFinalJob(
  ctx: JobsDeps,
  jobId: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (await repo.findById(ctx.db, jobId)) as JobRow;
    const left = deadline - Date.now();
    if (isFinalJobStatus(row.status) || left <= 0 || signal?.aborted) return row;
    await nextChange(ctx, jobId, Math.min(POLL_MS, left), signal);
  }
}
