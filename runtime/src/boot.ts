import fs from 'node:fs';

/** An error listing every invalid environment variable (the API's and the worker's config errors). */
interface ConfigProblems extends Error {
  problems: string[];
}

function isConfigProblems(err: unknown): err is ConfigProblems {
  return err instanceof Error && Array.isArray((err as Partial<ConfigProblems>).problems);
}

/**
 * Start-up of a process (API or worker): a local .env (see .env.example) fills in what the environment
 * does not set, then `load` validates the configuration; invalid variables are printed, all of them, and
 * the process exits with status 1 instead of starting half-configured.
 */
export function loadConfigOrExit<T>(load: () => T): T {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return load();
  } catch (err) {
    if (isConfigProblems(err)) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Runs `stop` once on the first SIGINT or SIGTERM (a second signal while stopping is ignored), then exits
 * 0; when `stop` takes longer than `graceMs`, `onTimeout` runs and the process exits 1.
 */
export function stopOnSignals(
  stop: (signal: NodeJS.Signals) => Promise<void>,
  graceMs: number,
  onTimeout: () => void,
): void {
  let stopping = false;
  const handle = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      onTimeout();
      process.exit(1);
    }, graceMs).unref();
    await stop(signal);
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void handle('SIGINT'));
  process.on('SIGTERM', () => void handle('SIGTERM'));
}
