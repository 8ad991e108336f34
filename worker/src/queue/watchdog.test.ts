import { spawn } from 'node:child_process';
import path from 'node:path';
import { WATCHDOG_MESSAGE } from './watchdog';

const CHILD = path.join(__dirname, '..', 'test-support', 'watchdog-child.ts');

interface Ended {
  signal: NodeJS.Signals | null;
  code: number | null;
  ms: number;
  lines: Array<Record<string, unknown>>;
}

/** Runs the child until it ends or `aliveMs` passes (then SIGTERMs it); times from its "ready". */
function run(mode: string, staleAfterMs: number, aliveMs: number): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, String(staleAfterMs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let readyAt = 0;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!readyAt && out.includes('ready\n')) {
        readyAt = Date.now();
        timer = setTimeout(() => child.kill('SIGTERM'), aliveMs);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, signal, ms: Date.now() - readyAt, lines });
    });
  });
}

describe('the worker liveness watchdog', () => {
  it.each(['idle', 'busy'])(
    'kills a %s worker whose heartbeat is stale, with one fatal log line',
    async (mode) => {
      const ended = await run(mode, 1500, 20_000);
      expect(ended.signal).toBe('SIGKILL');
      expect(ended.ms).toBeLessThan(5000);
      expect(ended.lines).toEqual([
        expect.objectContaining({
          level: 60,
          component: 'worker',
          workerId: 'child',
          msg: WATCHDOG_MESSAGE,
          staleAfterSeconds: 1.5,
          lastHeartbeatSecondsAgo: expect.any(Number),
        }),
      ]);
    },
    30_000,
  );

  it('leaves a worker that keeps writing heartbeats alone', async () => {
    const ended = await run('beat', 1000, 3500);
    expect(ended.signal).toBe('SIGTERM');
    expect(ended.lines).toEqual([]);
  }, 30_000);
});
