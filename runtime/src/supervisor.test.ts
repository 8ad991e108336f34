import { spawn, type ChildProcess } from 'node:child_process';
import { superviseApiAndWorker, type Supervisor } from './supervisor';

// Real child processes stand in for the API and the worker: each just stays alive until signalled.
const idle = () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

async function until<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('superviseApiAndWorker (npm start)', () => {
  const children: ChildProcess[] = [];
  const track = (child: ChildProcess) => (children.push(child), child);
  let supervisor: Supervisor | undefined;

  afterEach(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    children.length = 0;
    supervisor = undefined;
  });

  it('restarts a worker killed by a signal, with a doubling delay, and says so', async () => {
    const lines: string[] = [];
    const exits: number[] = [];
    const api = track(idle());
    supervisor = superviseApiAndWorker(api, {
      startWorker: () => track(idle()),
      log: (line) => lines.push(line),
      exit: (code) => exits.push(code),
      firstDelayMs: 50,
      maxDelayMs: 400,
    });
    const first = supervisor.worker();
    first.kill('SIGKILL');
    const second = await until(() => (supervisor!.worker() !== first ? supervisor!.worker() : undefined));
    expect(second.pid).not.toBe(first.pid);
    expect(second.exitCode).toBeNull();
    // A second quick death waits twice as long.
    second.kill('SIGKILL');
    const third = await until(() => (supervisor!.worker() !== second ? supervisor!.worker() : undefined));
    expect(lines).toEqual([
      'The worker stopped (killed by SIGKILL); restarting it in 0.05 s.',
      `The worker was restarted (pid ${second.pid}).`,
      'The worker stopped (killed by SIGKILL); restarting it in 0.1 s.',
      `The worker was restarted (pid ${third.pid}).`,
    ]);
    // A worker stopped alone with SIGTERM (by hand, or by a host's process manager) comes back too; the API is untouched.
    third.kill('SIGTERM');
    await until(() => (supervisor!.worker() !== third ? true : undefined));
    expect(lines[4]).toBe('The worker stopped (killed by SIGTERM); restarting it in 0.2 s.');
    expect(api.exitCode === null && api.signalCode === null).toBe(true);
    expect(exits).toEqual([]);

    // Ctrl-C: the worker stops first, then the API, then the supervisor exits 0.
    const last = supervisor.worker();
    supervisor.stop('SIGINT', 0);
    await Promise.all([exited(last), exited(api)]);
    await until(() => (exits.length ? true : undefined));
    expect(last.signalCode).toBe('SIGINT');
    expect(api.signalCode).toBe('SIGINT');
    expect(exits).toEqual([0]);
  });

  it('stops the worker and exits 1 when the API dies, and restarts nothing', async () => {
    const lines: string[] = [];
    const exits: number[] = [];
    let started = 0;
    const api = track(idle());
    supervisor = superviseApiAndWorker(api, {
      startWorker: () => (started++, track(idle())),
      log: (line) => lines.push(line),
      exit: (code) => exits.push(code),
      firstDelayMs: 20,
    });
    const worker = supervisor.worker();
    api.kill('SIGKILL');
    await exited(worker);
    await until(() => (exits.length ? true : undefined));
    expect(worker.signalCode).toBe('SIGTERM');
    expect(exits).toEqual([1]);
    expect(lines).toEqual(["The API stopped (killed by SIGKILL); stopping the worker too. See the API's log above."]);
    await new Promise((r) => setTimeout(r, 100));
    expect(started).toBe(1);
  });

  it('does not restart a worker while its restart is pending after the API died', async () => {
    const exits: number[] = [];
    let started = 0;
    const api = track(idle());
    supervisor = superviseApiAndWorker(api, {
      startWorker: () => (started++, track(idle())),
      log: () => undefined,
      exit: (code) => exits.push(code),
      firstDelayMs: 300,
    });
    supervisor.worker().kill('SIGKILL');
    await exited(supervisor.worker());
    api.kill('SIGKILL');
    await until(() => (exits.length ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(started).toBe(1);
    expect(exits).toEqual([1]);
  });
});
