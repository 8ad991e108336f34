import {
  JOB_MESSAGES,
  isFinalJobStatus,
  type JobName,
  type JobPage,
  type JobStatus,
  type JobView,
} from '@imagestudio/contracts';
import { raiseCancelFlag } from './cancel-flag';
import { AppError, notFound } from '../../lib/errors';
import { failJob } from './finalize.service';
import { removeJobFiles } from './job-files';
import { presentJob } from './job-presenter';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

export const JOBS_PER_PAGE = 20;
/** Cancel flags outlive any job's running time, then expire by themselves. */

export const jobNotFound = () => notFound('Job not found.');

/** The user's job row; another user's job and an unknown id are the same 404. */
export async function ownedJob(ctx: JobsDeps, userId: string, jobId: string): Promise<JobRow> {
  if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw jobNotFound();
  const row = await repo.findForUser(ctx.db, jobId, userId);
  if (!row) throw jobNotFound();
  return row;
}

/** One job as GET /api/jobs/{id} shows it. */
export async function getJob(ctx: JobsDeps, userId: string, jobId: string): Promise<JobView> {
  return presentJob(ctx, await ownedJob(ctx, userId, jobId));
}

/** Request history (any status) or projects (succeeded jobs whose files still exist), newest first. */
export async function listJobs(
  ctx: JobsDeps,
  userId: string,
  query: { page: number; tool?: JobName; status?: JobStatus; projectsOnly?: boolean },
): Promise<JobPage> {
  const { rows, total } = await repo.listForUser(ctx.db, { userId, perPage: JOBS_PER_PAGE, ...query });
  return {
    items: await Promise.all(rows.map((row) => presentJob(ctx, row))),
    page: query.page,
    per_page: JOBS_PER_PAGE,
    total,
    last_page: Math.max(1, Math.ceil(total / JOBS_PER_PAGE)),
  };
}

/**
 * Cancels an open job. A job still waiting in the queue is removed and refunded now; a running one gets
 * the cancel flag, which the worker checks at its next step, and is refunded when its failure arrives.
 */
export async function cancelJob(ctx: JobsDeps, userId: string, jobId: string): Promise<JobView> {
  const row = await ownedJob(ctx, userId, jobId);
  if (isFinalJobStatus(row.status)) throw new AppError('conflict', JOB_MESSAGES.alreadyFinished);
  await cancelOpenJob(ctx, jobId);
  return getJob(ctx, userId, jobId);
}

/** The cancel itself, for a job already known to be the caller's (also cancels a batch's items). */
export async function cancelOpenJob(ctx: JobsDeps, jobId: string): Promise<void> {
  await repo.setCancelRequested(ctx.db, jobId);
  await raiseCancelFlag(ctx, jobId);
  // remove() refuses a job a worker holds (returns 0), so a running job is never pulled from under it.
  const removed = await ctx.queue.remove(jobId);
  const inQueue = removed === 0 && (await ctx.queue.getJob(jobId)) !== undefined;
  if (removed === 1 || !inQueue) {
    await failJob(ctx, jobId, {
      message: JOB_MESSAGES.cancelled,
      detail: 'cancelled before it started',
      cancelled: true,
    });
  }
}

/** Deletes a finished job's stored files; the history row stays, marked deleted. */
export async function deleteJob(ctx: JobsDeps, userId: string, jobId: string): Promise<JobView> {
  const row = await ownedJob(ctx, userId, jobId);
  if (!isFinalJobStatus(row.status)) throw new AppError('conflict', 'This job has not finished yet. Cancel it first.');
  if (!row.deleted_at) await removeJobFiles(ctx, row, 'deleted_at');
  return getJob(ctx, userId, jobId);
}
