import { isFinalJobStatus, type JobStatus, type JobView } from '@imagestudio/contracts';

/**
 * What the tool page shows about one job, derived from whatever reports arrive: SSE `job`/`end` events or
 * polled GET /api/jobs/{id} replies. Reports can arrive late or out of order (a poll answered after a newer
 * event), so the machine only moves forward: queued -> running -> succeeded | failed | cancelled.
 */
export interface JobProgress {
  status: JobStatus;
  /** 0..100 while running; 100 once succeeded. */
  progress: number;
  queuePosition: number | null;
  job: JobView;
  /** Date.now() when the last report that moved the job arrived: its eta_seconds counts down from here. */
  reportedAt: number;
}

const RANK: Record<JobStatus, number> = { queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };

/** The state for a job seen for the first time (the 202 reply of a submit). */
export function initialProgress(job: JobView): JobProgress {
  return {
    status: job.status,
    progress: job.status === 'succeeded' ? 100 : job.progress,
    queuePosition: job.queue_position,
    job,
    reportedAt: Date.now(),
  };
}

/**
 * Applies one report to the state. A report that would move the job backwards (an older status, lower
 * progress, or anything after the final state) is ignored; a final report always carries the full job.
 */
export function applyJobReport(state: JobProgress, report: JobView): JobProgress {
  if (report.id !== state.job.id) return state;
  if (isFinalJobStatus(state.status)) return state;
  if (RANK[report.status] < RANK[state.status]) return state;
  if (isFinalJobStatus(report.status)) return initialProgress(report);
  const sameStatus = report.status === state.status;
  return {
    status: report.status,
    progress: sameStatus ? Math.max(state.progress, report.progress) : report.progress,
    queuePosition: report.status === 'queued' ? report.queue_position : null,
    job: report,
    reportedAt: Date.now(),
  };
}

/** True once the job has its outcome and nothing more will arrive. */
export function isFinished(state: JobProgress): boolean {
  return isFinalJobStatus(state.status);
}

/** Seconds left at `now`: the last report's estimate less the time since it arrived; null when unknown. */
export function secondsLeftNow(state: JobProgress, now: number): number | null {
  const eta = state.job.eta_seconds;
  if (eta === null || eta === undefined || isFinished(state)) return null;
  return Math.max(0, Math.round(eta - (now - state.reportedAt) / 1000));
}
