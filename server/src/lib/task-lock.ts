import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@imagestudio/runtime';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Runs `work` only if this process wins the Redis lock `key` (SET NX PX), so a periodic task runs one
 * at a time across every API process. The lock expires by itself if its holder dies; it is released
 * only by the holder. Returns false when another process held it.
 */
export async function withLock(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  work: () => Promise<void>,
): Promise<boolean> {
  const token = randomUUID();
  const won = await redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
  if (won !== 'OK') return false;
  try {
    await work();
  } finally {
    await redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
  }
  return true;
}

/** A background loop: runs `tick` every `intervalMs` (never overlapping itself); stop waits for a running tick. */
export function every(
  intervalMs: number,
  tick: () => Promise<void>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = tick()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
