import { ConnectionClosedError, createNodeRedisClient } from 'bullmq';
import { ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError } from 'redis';
import type { RedisClient } from './redis';

type Adapter = ReturnType<typeof createNodeRedisClient>;

/**
 * BullMQ's connection for a node-redis client. BullMQ's node-redis adapter re-emits every socket error
 * on itself, and duplicates it makes (the Worker's blocking connection) or whose listener it removed on
 * close have no listener: Node then throws the 'error' event and a Redis restart ended the process. Here
 * the adapter and every duplicate made from it get a listener (`onError`, logging by default nothing),
 * so an outage is a logged, retried condition; node-redis reconnects and BullMQ resumes by itself.
 *
 * Every command also goes through `speakBullmq`: while node-redis reconnects it rejects commands at once
 * with "The client is offline" (our clients have no offline queue), an error BullMQ does not know as a
 * connection error. A Worker that was not idle when Redis went away (its next fetch is a plain
 * moveToActive, not the blocking wait) then retried that fetch at once, for ever, in a loop of promise
 * rejections that never yielded to the timers: node-redis's reconnect timer never ran, so the worker
 * spun on a core and never reconnected. As BullMQ's ConnectionClosedError the same failure makes the
 * Worker wait `runRetryDelay` before it tries again, and the reconnect happens in between.
 */
export function queueConnection(client: RedisClient, onError: (err: Error) => void = () => undefined): Adapter {
  return guard(createNodeRedisClient(speakBullmq(client)), onError);
}

/**
 * `client` with every promise it returns turning "Redis is unreachable" (isRedisUnavailable) into BullMQ's
 * ConnectionClosedError; duplicates (BullMQ's blocking connection) get the same treatment.
 */
export function speakBullmq<C extends object>(client: C): C {
  const translate = (err: unknown) => {
    throw isRedisUnavailable(err) && !(err instanceof ConnectionClosedError)
      ? new ConnectionClosedError(undefined, err)
      : err;
  };
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'duplicate') {
        return (...args: unknown[]) => speakBullmq((value as (...a: unknown[]) => object).apply(target, args));
      }
      return (...args: unknown[]) => {
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out instanceof Promise ? out.catch(translate) : out;
      };
    },
  });
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
    err instanceof ConnectionClosedError ||
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
