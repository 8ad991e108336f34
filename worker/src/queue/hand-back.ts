import { type Job, WaitingError, type Worker } from 'bullmq';
import type { JobResult } from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';

type QueueJob = Job<unknown, JobResult, string>;

interface ActiveJob {
  job: QueueJob;
  token: string | undefined;
  /** Ends the processor's promise with BullMQ's WaitingError once the job is back in the queue. */
  release: (err: WaitingError) => void;
}

/**
 * The jobs this worker runs, so that a shutdown whose grace has run out can hand them back to the queue at once
 * (BullMQ's moveToWait with the job's lock token) instead of leaving them locked until the stalled-job check
 * notices, a lock period later. Another worker then starts such a job from the beginning; its charge stays the
 * one it had, because admission charged it, not the run.
 */
export class ActiveJobs {
  private readonly active = new Map<string, ActiveJob>();

  /** Wraps the processor: its promise ends with the run, or with WaitingError once the job is handed back. */
  track(processor: (job: QueueJob) => Promise<JobResult>): (job: QueueJob, token?: string) => Promise<JobResult> {
    return async (job, token) => {
      const id = String(job.id);
      const handedBack = new Promise<never>((_, reject) => {
        this.active.set(id, { job, token, release: reject });
      });
      try {
        return await Promise.race([processor(job), handedBack]);
      } finally {
        this.active.delete(id);
      }
    };
  }

  /**
   * Closes the BullMQ worker: it takes no new job and waits for the running ones; past `graceMs` (when given)
   * those still running are handed back. Returns the ids handed back.
   */
  async closeWorker(worker: Worker<unknown, JobResult, string>, graceMs: number | undefined, logger: Logger) {
    const closing = worker.close();
    let handedBack: string[] = [];
    if (graceMs !== undefined && this.active.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), graceMs);
      });
      const outcome = await Promise.race([closing, graceOver]);
      clearTimeout(timer);
      if (outcome === 'grace over') handedBack = await this.handBackAll(logger);
    }
    await closing;
    return handedBack;
  }

  /**
   * Puts every running job back in the queue (waiting, or prioritized as it was) and ends its processor, so that
   * BullMQ's close stops waiting for it. The abandoned run goes on in the background until the process exits; its
   * progress updates and files are overwritten by the next run. A job that cannot be moved (Redis away) stays
   * locked, and the stalled-job check hands it on as before. Returns the ids handed back.
   */
  private async handBackAll(logger: Logger): Promise<string[]> {
    const handed: string[] = [];
    for (const [id, entry] of [...this.active]) {
      try {
        await entry.job.moveToWait(entry.token);
        this.active.delete(id);
        entry.release(new WaitingError());
        handed.push(id);
      } catch (err) {
        logger.warn({ jobId: id, err: (err as Error).message }, 'could not hand the job back; its lock will expire');
      }
    }
    return handed;
  }
}
