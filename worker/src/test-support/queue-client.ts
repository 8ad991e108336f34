import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAME } from '@imagestudio/contracts';
import { type RedisClient, connectRedis, queueConnection } from '@imagestudio/runtime';

/** The API's side of the queue for worker tests: a producer, its Redis, queue events; close() removes the queue. */
export interface QueueClient {
  redis: RedisClient;
  queue: Queue;
  events: QueueEvents;
  /** Adds a job with its own id (`data.jobId` or a new one), 3 attempts 100 ms apart, as the API does. */
  submit(name: string, data: Record<string, unknown>): ReturnType<Queue['add']>;
  close(): Promise<void>;
}

export async function openQueueClient(redisUrl: string, database: number, prefix: string): Promise<QueueClient> {
  const redis = await connectRedis(redisUrl, { database });
  const queue = new Queue(QUEUE_NAME, { connection: queueConnection(redis), prefix });
  queue.on('error', () => undefined);
  // QueueEvents blocks on its connection, so it gets its own; BullMQ leaves closing it to us.
  const eventsRedis = redis.duplicate();
  await eventsRedis.connect();
  const events = new QueueEvents(QUEUE_NAME, { connection: queueConnection(eventsRedis), prefix });
  events.on('error', () => undefined);
  await events.waitUntilReady();
  return {
    redis,
    queue,
    events,
    submit: (name, data) => {
      const jobId = (data.jobId as string | undefined) ?? randomUUID();
      return queue.add(name, { ...data, jobId }, { jobId, attempts: 3, backoff: { type: 'fixed', delay: 100 } });
    },
    close: async () => {
      await events.close();
      await eventsRedis.quit();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await redis.quit();
    },
  };
}
