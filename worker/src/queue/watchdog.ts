import { Worker } from 'node:worker_threads';

/** The message of the watchdog's last log line, for operators' alerts and the tests. */
export const WATCHDOG_MESSAGE = 'watchdog: no heartbeat written; exiting so that a supervisor starts a fresh worker';

export interface Watchdog {
  /** A heartbeat was written just now. */
  beat(): void;
  stop(): Promise<void>;
}

/**
 * Runs in its own thread so that it still acts when the main thread's event loop is stuck (busy, or starved
 * by a loop of promise rejections, as a worker that lost Redis mid-job once was): every second it compares
 * the time of the last heartbeat with now; past `staleAfterMs` it writes one pino-shaped fatal line to
 * stdout and ends the process with SIGKILL (no shutdown hook of a stuck process can be trusted to run).
 * `npm start`, Docker's restart policy or any supervisor then starts a fresh worker.
 */
const THREAD = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { last, staleAfterMs, base, message } = workerData;
const view = new BigInt64Array(last);
setInterval(() => {
  const since = Date.now() - Number(Atomics.load(view, 0));
  if (since <= staleAfterMs) return;
  const line = JSON.stringify({
    level: 60, time: Date.now(), pid: process.pid, ...base,
    msg: message, lastHeartbeatSecondsAgo: Math.round(since / 1000), staleAfterSeconds: staleAfterMs / 1000,
  });
  try { fs.writeSync(1, line + '\\n'); } catch {}
  process.kill(process.pid, 'SIGKILL');
}, 1000);
`;

/**
 * Starts the liveness watchdog: the process is killed once `beat()` has not been called for `staleAfterMs`
 * (counted from now at start). `base` is merged into the log line (e.g. `{ component: 'worker', workerId }`).
 */
export function startWatchdog(staleAfterMs: number, base: Record<string, unknown> = {}): Watchdog {
  const last = new SharedArrayBuffer(8);
  const view = new BigInt64Array(last);
  const beat = () => Atomics.store(view, 0, BigInt(Date.now()));
  beat();
  const thread = new Worker(THREAD, {
    eval: true,
    workerData: { last, staleAfterMs, base, message: WATCHDOG_MESSAGE },
    stdout: false,
    stderr: false,
  });
  thread.unref();
  return {
    beat,
    stop: async () => {
      await thread.terminate();
    },
  };
}
