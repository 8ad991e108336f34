import { Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAME } from '@imagestudio/contracts';
import { queueConnection, type RedisClient } from '@imagestudio/runtime';

/**
 * The API side of the queue: one producer `Queue` on its own Redis connection (db QUEUE_REDIS_DB).
 * Default job options live here, once (style.md rule 9).
 */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export function createQueue(connection: RedisClient, prefix: string): Queue {
  const queue = new Queue(QUEUE_NAME, {
    connection: queueConnection(connection),
    prefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
  return queue;
}

/** QueueEvents needs a blocking connection of its own, hence a duplicate of the given client. */
export function createQueueEvents(connection: RedisClient, prefix: string): QueueEvents {
  return new QueueEvents(QUEUE_NAME, { connection: queueConnection(connection.duplicate()), prefix });
}
