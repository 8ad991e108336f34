import { spawn } from 'node:child_process';
import { EXIT_WITH_PARENT } from './child-guard';

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

describe('EXIT_WITH_PARENT', () => {
  it('stops a child whose parent was killed outright, and leaves one whose parent lives alone', async () => {
    // A parent that starts two idle children, one with the guard and one without, prints their pids and waits.
    const start = (guard: readonly string[]) =>
      `spawn(process.execPath, ['--import', 'tsx', ${guard.map((a) => JSON.stringify(a)).join(', ')}${guard.length ? ', ' : ''}'-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }).pid`;
    const script = `const { spawn } = require('node:child_process');
      console.log(JSON.stringify({ guarded: ${start(EXIT_WITH_PARENT)}, plain: ${start([])} }));
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(String(d))));
    const { guarded, plain } = JSON.parse(line) as { guarded: number; plain: number };
    try {
      // Both run while the parent does (the guard has checked at least twice by then).
      await new Promise((r) => setTimeout(r, 2500));
      expect(running(guarded)).toBe(true);
      expect(running(plain)).toBe(true);
      parent.kill('SIGKILL');
      expect(await waitFor(() => !running(guarded), 10_000)).toBe(true);
      // Without the guard a child outlives its killed parent: what the guard is there for.
      expect(running(plain)).toBe(true);
    } finally {
      for (const pid of [guarded, plain]) if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);
});
