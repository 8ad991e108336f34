import { EventEmitter } from 'node:events';
import type { JobsDeps } from './jobs.deps';

/**
 * In-process notice that a job's row changed (written by this process's event listener, reconciler or
 * a request), so open event streams push at once instead of waiting for their next poll. The event name
 * is the job id.
 */
export function createJobUpdates(): EventEmitter {
  const emitter = new EventEmitter();
  // One listener per open event stream; thousands of streams are normal, not a leak.
  emitter.setMaxListeners(0);
  return emitter;
}

/** Announces that the job's row changed. */
export function notifyJobChanged(ctx: JobsDeps, jobId: string): void {
  ctx.services.jobUpdates.emit(jobId);
}
