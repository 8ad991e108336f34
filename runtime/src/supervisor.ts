import type { ChildProcess } from 'node:child_process';

export interface SupervisorOptions {
  /** Starts one worker process; called at once and again after each unexpected exit. */
  startWorker: () => ChildProcess;
  /** Where the supervisor says what it does (one line each). */
  log: (line: string) => void;
  /** Ends the supervising process once everything has stopped. */
  exit: (code: number) => void;
  /** The first restart delay; it doubles after each quick crash, up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A worker that ran this long before it died is restarted after firstDelayMs again. */
  resetAfterMs?: number;
}

export interface Supervisor {
  /** The worker process running now (a new one after each restart). */
  worker(): ChildProcess;
  /** Stops the worker, then the API, with `signal`, then exits with `exitCode`. Only the first call counts. */
  stop(signal: NodeJS.Signals, exitCode: number): void;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const how = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `killed by ${signal}` : `exit code ${code}`;

/**
 * Keeps `npm start`'s two children running together. A worker that dies (crash, out of memory, a signal) is
 * restarted after a delay that doubles while it keeps dying quickly, so a worker that cannot start does not
 * spin; nothing is lost meanwhile, as its jobs wait in the queue. Without the API nothing works, so an API
 * that dies stops the worker and the supervisor exits 1. Stopping takes the worker down first, so it
 * finishes or hands back its job while the API can still record the outcome.
 */
export function superviseApiAndWorker(api: ChildProcess, options: SupervisorOptions): Supervisor {
  const firstDelayMs = options.firstDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const resetAfterMs = options.resetAfterMs ?? 60_000;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let delayMs = firstDelayMs;
  let worker: ChildProcess;

  const stop = (signal: NodeJS.Signals, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    clearTimeout(restartTimer);
    const stopApi = () => {
      if (!alive(api)) return options.exit(exitCode);
      api.once('exit', () => options.exit(exitCode));
      api.kill(signal);
    };
    if (!alive(worker)) return stopApi();
    worker.once('exit', stopApi);
    worker.kill(signal);
  };

  const startSupervised = () => {
    const child = options.startWorker();
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (stopping) return;
      if (Date.now() - startedAt >= resetAfterMs) delayMs = firstDelayMs;
      options.log(`The worker stopped (${how(code, signal)}); restarting it in ${delayMs / 1000} s.`);
      restartTimer = setTimeout(() => {
        worker = startSupervised();
        options.log(`The worker was restarted (pid ${worker.pid}).`);
      }, delayMs);
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    });
    return child;
  };

  api.once('exit', (code, signal) => {
    if (stopping) return;
    options.log(`The API stopped (${how(code, signal)}); stopping the worker too. See the API's log above.`);
    stop('SIGTERM', 1);
  });
  worker = startSupervised();
  return { worker: () => worker, stop };
}
