import { createNodeRedisClient } from 'bullmq';
import { ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError } from 'redis';
import type { RedisClient } from './redis';

type Adapter = ReturnType<typeof createNodeRedisClient>;

/**
 * BullMQ's connection for a node-redis client. BullMQ's node-redis adapter re-emits every socket error
 * on itself, and duplicates it makes (the Worker's blocking connection) or whose listener it removed on
 * close have no listener: Node then throws the 'error' event and a Redis restart ended the process. Here
 * the adapter and every duplicate made from it get a listener (`onError`, logging by default nothing),
 * so an outage is a logged, retried condition; node-redis reconnects and BullMQ resumes by itself.
 */
export function queueConnection(client: RedisClient, onError: (err: Error) => void = () => undefined): Adapter {
  return guard(createNodeRedisClient(client), onError);
}

function guard(adapter: Adapter, onError: (err: Error) => void): Adapter {
  adapter.on('error', onError);
  const duplicate = adapter.duplicate.bind(adapter);
  adapter.duplicate = ((...args: Parameters<Adapter['duplicate']>) =>
    guard(duplicate(...args) as Adapter, onError)) as Adapter['duplicate'];
  return adapter;
}

/** Whether `err` says Redis is unreachable right now (refused, dropped, timed out, reconnecting). */
export function isRedisUnavailable(err: unknown): boolean {
  if (
    err instanceof ClientOfflineError ||
    err instanceof ClientClosedError ||
    err instanceof SocketClosedUnexpectedlyError ||
    err instanceof ConnectionTimeoutError
  )
    return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * An error listener that logs a repeating connection error once per `everyMs` instead of once per
 * reconnect attempt (one a second per connection during an outage), with how many were left out.
 */
export function throttledErrorLog(log: (err: Error, skipped: number) => void, everyMs = 30_000): (err: Error) => void {
  let last = 0;
  let skipped = 0;
  return (err) => {
    const now = Date.now();
    if (now - last < everyMs) {
      skipped += 1;
      return;
    }
    log(err, skipped);
    last = now;
    skipped = 0;
  };
}
