import {
  HEARTBEAT_TTL_SECONDS,
  heartbeatKey,
  type WorkerHeartbeat,
  workerHeartbeatSchema,
} from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';
import type { RedisClient } from '@imagestudio/runtime';

/**
 * Publishes this worker's heartbeat (contracts `heartbeatKey(QUEUE_PREFIX, workerId)`, TTL HEARTBEAT_TTL_SECONDS) every third
 * of the TTL, so the API's tool status sees which tools some worker can run and on what provider.
 * Returns a stop function that also deletes the key, so a cleanly stopped worker disappears at once.
 * `onWritten` runs after each successful write (the liveness watchdog's beat). While `healthy()` is false (the
 * BullMQ worker's loop has stopped) nothing is written: the key expires and, without beats, the watchdog ends
 * the process, instead of a worker that takes no jobs advertising its tools. `activity()` adds what changes
 * from beat to beat (the jobs it runs, how many it has done), read at each write.
 */
export function startHeartbeat(
  redis: RedisClient,
  queuePrefix: string,
  beat: Omit<WorkerHeartbeat, 'at'>,
  logger: Logger,
  onWritten: () => void = () => undefined,
  healthy: () => boolean = () => true,
  activity: () => Pick<WorkerHeartbeat, 'currentJobs' | 'jobsDone'> = () => ({}),
): () => Promise<void> {
  const key = heartbeatKey(queuePrefix, beat.workerId);
  const publish = async () => {
    if (!healthy()) {
      logger.warn('heartbeat withheld: the queue worker is not running');
      return;
    }
    const value = workerHeartbeatSchema.parse({ ...beat, ...activity(), at: new Date().toISOString() });
    await redis.set(key, JSON.stringify(value), { expiration: { type: 'EX', value: HEARTBEAT_TTL_SECONDS } });
    onWritten();
  };
  const tick = () => publish().catch((err: Error) => logger.warn({ err: err.message }, 'heartbeat failed'));
  void tick();
  const timer = setInterval(tick, (HEARTBEAT_TTL_SECONDS * 1000) / 3);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.del(key).catch(() => undefined);
  };
}
