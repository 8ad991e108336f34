import { type JobsOptions, Queue } from 'bullmq';
import { type JobData, type JobName, type JobPayloads, type JobResult, QUEUE_NAME } from '@imagestudio/contracts';
import { queueConnection, type RedisClient } from '@imagestudio/runtime';

/**
 * The producer's queue, typed by BullMQ's generics (data, result, name): a job's data is some tool's payload,
 * its result the worker's JobResult, its name a job name. BullMQ types the name and the data apart, so `add`
 * alone would take one tool's payload under another's name: jobs go on through `addJobs`, which ties them.
 */
export type ImagesQueue = Queue<JobData, JobResult, JobName>;

/** One job of tool N: its payload and its options (the job id is the `image_jobs` row's). */
export interface QueuedJob<N extends JobName> {
  data: JobPayloads[N];
  opts: JobsOptions & { jobId: string };
}

/**
 * Adds jobs of one tool in one round trip; the payloads must be that tool's (`JobPayloads[N]`), so a payload of
 * another tool does not compile. A single job goes through `add`: right after a queue Redis outage `addBulk`
 * failed where `add` succeeded (health/redis-outage.test.ts).
 */
export function addJobs<N extends JobName>(
  queue: ImagesQueue,
  name: N,
  jobs: readonly QueuedJob<N>[],
): Promise<unknown> {
  const [one] = jobs;
  if (jobs.length === 1 && one) return queue.add(name, one.data, one.opts);
  return queue.addBulk(jobs.map((job) => ({ name, data: job.data, opts: job.opts })));
}

/** How often a job is tried and how long BullMQ waits before the first retry (doubling after each failure). */
export interface RetryPolicy {
  attempts: number;
  firstRetryDelayMs: number;
}

/**
 * The API side of the queue: one producer `Queue` on its own Redis connection (db QUEUE_REDIS_DB). Every job
 * option lives here, once: the retry policy from the configuration, and how long finished jobs stay in Redis
 * (Postgres keeps the job record; Redis only needs them long enough for events and the reconciler).
 */
export function createQueue(connection: RedisClient, prefix: string, retry: RetryPolicy): ImagesQueue {
  return new Queue<JobData, JobResult, JobName>(QUEUE_NAME, {
    connection: queueConnection(connection),
    prefix,
    defaultJobOptions: {
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.firstRetryDelayMs },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  });
}
