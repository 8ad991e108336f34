import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { EXIT_WITH_PARENT, killOnExit } from '@imagestudio/runtime';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Starts and stops real worker processes (`worker/src/main.ts`, CPU, models from models/.cache) against the
 * e2e API's queue and S3 server. One at a time: a worker that cannot run a tool would take and fail its jobs.
 */
export class WorkerControl {
  private child: ChildProcess | null = null;
  private output = '';
  /** The `extra` environment the running worker was started with. */
  private started = '';

  constructor(private readonly env: Record<string, string>) {}

  /** Starts a worker with `extra` environment (e.g. GENERATION_MODEL_DIR), stopping the previous one first. */
  async start(extra: Record<string, string> = {}): Promise<void> {
    await this.stop();
    this.output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', ...EXIT_WITH_PARENT, 'worker/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, GENERATION_MODEL_DIR: '', ...this.env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    killOnExit(child);
    this.child = child;
    this.started = JSON.stringify(extra);
  }

  /**
   * Starts a worker with `extra` unless one started with the same `extra` still runs, so a test (or a subset
   * picked with --grep or E2E_ONLY) does not depend on what an earlier test left running.
   */
  async ensure(extra: Record<string, string> = {}): Promise<void> {
    if (this.child && this.child.exitCode === null && this.started === JSON.stringify(extra)) return;
    await this.start(extra);
  }

  /** The last lines the worker printed (for failure messages). */
  tail(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
