import type { Request, Response } from 'express';
import { registerOpenStream } from './drain';

/** Changes written by another API process reach a stream through this poll. */
const POLL_MS = 1000;
/** A comment line keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

export interface SnapshotStreamOptions<T> {
  /** The event name of each snapshot (`end` carries the final one). */
  event: string;
  /** Reads the current state; null when the thing is gone (nothing is sent). */
  read(): Promise<T | null>;
  /** What decides whether a snapshot is new (URLs are re-signed on every read, so not the whole view). */
  fingerprint(view: T): string;
  /** A final snapshot is sent once more as `end`, then the stream closes. */
  isFinal(view: T): boolean;
  onReadError(err: unknown): void;
}

export interface SnapshotStream {
  /** Reads and sends now (at most one read at a time; a push during a read reads once more after it). */
  push(): void;
  /** Runs `fn` when the stream ends, by the client leaving or by the final snapshot. */
  onClose(fn: () => void): void;
}

/**
 * Server-Sent Events of whole snapshots of one thing (a job, a batch): a snapshot at once (on the first
 * push), again whenever its fingerprint changes (on a push from this process or the poll for changes made
 * by others), then `end` with the final state, and the stream closes.
 */
export function openSnapshotStream<T>(req: Request, res: Response, options: SnapshotStreamOptions<T>): SnapshotStream {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx would otherwise buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();

  let last = '';
  let closed = false;
  let busy = false;
  let again = false;
  const closers: Array<() => void> = [];
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  const cleanup = () => {
    if (closed) return;
    closed = true;
    clearInterval(poll);
    clearInterval(keepalive);
    unregister();
    for (const fn of closers) fn();
  };
  // A stopping API ends the stream; the browser reconnects to another process (the retry below).
  const unregister = registerOpenStream(() => {
    cleanup();
    res.end();
  });
  const push = () => {
    if (closed) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    void (async () => {
      const view = await options.read();
      if (view === null || closed) return;
      const print = options.fingerprint(view);
      if (print !== last) {
        last = print;
        send(options.event, view);
      }
      if (options.isFinal(view)) {
        send('end', view);
        cleanup();
        res.end();
      }
    })()
      .catch(options.onReadError)
      .finally(() => {
        busy = false;
        if (again && !closed) {
          again = false;
          push();
        }
      });
  };

  const poll = setInterval(push, POLL_MS);
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  req.on('close', cleanup);
  res.write('retry: 2000\n\n');
  return { push, onClose: (fn) => closers.push(fn) };
}
