import { parseJobStage } from './job-stages';

/** What the estimate knows of an open job. */
export interface EtaJob {
  status: string;
  /** 0..100 as the worker last reported it. */
  progress: number;
  started_at: Date | null;
  queuePosition: number | null;
  /** The worker's stage text ("processing 3/12" carries the units done and in all). */
  stage?: string | null;
}

/**
 * Seconds left for an open job, or null when nothing is known yet.
 *
 * - Queued: its own expected run plus one such run for every job ahead of it.
 * - Running, with units of work counted (tiles of an upscale, steps of a generation) and at least one done:
 *   the job's own measured time per unit so far times the units left. Its own rate wins over the recent
 *   median of other runs, which can come from other machines, loads or sizes; time spent before the first unit
 *   (fetching, loading) is in that rate, so early figures err long, never short.
 * - Running with units counted but none done yet: the whole expected run (the recent median per unit times its
 *   units), since all its work is still to do.
 * - Running without units: the expected run less the time spent; past it, the pace of its own percentage.
 */
export function secondsLeft(expectedMs: number | null, job: EtaJob, now = Date.now()): number | null {
  const ms = msLeft(expectedMs, job, now);
  if (ms === null) return null;
  // A running job has always something left until it says it is done.
  return job.status === 'running' ? Math.max(1, Math.ceil(ms / 1000)) : Math.ceil(ms / 1000);
}

/** The same estimate in milliseconds (what the tests compare against measured runs). */
export function msLeft(expectedMs: number | null, job: EtaJob, now = Date.now()): number | null {
  if (job.status === 'queued') return expectedMs === null ? null : expectedMs * Math.max(1, job.queuePosition ?? 1);
  if (job.status !== 'running') return null;
  const elapsed = job.started_at ? Math.max(0, now - job.started_at.getTime()) : 0;
  const units = parseJobStage(job.stage);
  if (units?.stage === 'processing' && units.done !== null && units.total !== null && units.total > 0) {
    if (units.done > 0) return (elapsed / units.done) * Math.max(0, units.total - units.done);
    // No unit done yet: every unit is still to do, whatever time fetching and loading took.
    if (expectedMs !== null) return expectedMs;
  }
  if (expectedMs !== null && elapsed < expectedMs) return expectedMs - elapsed;
  if (job.progress > 0 && job.progress < 100) return (elapsed * (100 - job.progress)) / job.progress;
  return expectedMs === null ? null : 0;
}
