import { Queue } from 'bullmq';
import { QUEUE_NAME } from '@imagestudio/contracts';
import { queueConnection, type RedisClient } from '@imagestudio/runtime';

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
export function createQueue(connection: RedisClient, prefix: string, retry: RetryPolicy): Queue {
  return new Queue(QUEUE_NAME, {
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
