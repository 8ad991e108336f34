import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@imagestudio/runtime/testing';

/**
 * Real API and worker processes for tests that need more than one of each (`server/src/main.ts` and
 * `worker/src/main.ts` through tsx, as `npm start` runs them). Each keeps the tail of its output for
 * failure messages and is stopped with SIGTERM (SIGKILL after 15 s).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

export class ChildService {
  private output = '';
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-6000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the process printed. */
  tail(): string {
    return `--- ${this.name} ---\n${this.output}`;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}

function spawnTs(name: string, entry: string, env: Record<string, string>): ChildService {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new ChildService(name, child);
}

export interface ApiProcess extends ChildService {
  baseUrl: string;
}

/** Starts the API on a free port and waits until `/api/ready` answers 200 (every dependency reachable). */
export async function startApiProcess(
  name: string,
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = Object.assign(
    spawnTs(name, 'server/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1', APP_URL: baseUrl }),
    { baseUrl },
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!service.running) throw new Error(`${name} exited before it was ready\n${service.tail()}`);
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) return service;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await service.stop();
      throw new Error(`${name} was not ready within ${timeoutMs} ms\n${service.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts a worker; it is ready once its heartbeat is in Redis (the caller waits for that). */
export function startWorkerProcess(name: string, env: Record<string, string>): ChildService {
  return spawnTs(name, 'worker/src/main.ts', { GENERATION_MODEL_DIR: '', WORKER_WARMUP_RUNS: '0', ...env });
}
