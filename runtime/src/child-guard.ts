import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Node arguments that make a child (the API, a worker) stop when the process that started it dies without
 * stopping it: see exit-with-parent.ts. Goes after `--import tsx`, which loads that TypeScript file.
 */
export const EXIT_WITH_PARENT = ['--import', path.join(__dirname, 'exit-with-parent.ts')];

/**
 * Sends SIGKILL to `child` if it still runs when this process exits, for every exit that runs 'exit'
 * handlers (process.exit after a failed global setup, an uncaught error); a SIGKILLed parent is covered by
 * EXIT_WITH_PARENT instead.
 */
export function killOnExit(child: ChildProcess): void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
}
