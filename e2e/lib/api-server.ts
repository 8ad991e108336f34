import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@imagestudio/runtime/testing';
import { EXIT_WITH_PARENT, killOnExit } from '@imagestudio/runtime';

const ROOT = path.resolve(__dirname, '..', '..');

/** The Redis key prefixes of one run (`runId`), shared by its API and the job workers the tests start. */
export function runPrefixes(runId: string): { QUEUE_PREFIX: string; RATE_LIMIT_PREFIX: string } {
  return { QUEUE_PREFIX: `e2e-${runId}`, RATE_LIMIT_PREFIX: `rl-e2e-${runId}` };
}

export interface RunningApi {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the real API (`server/src/main.ts`) with the given environment and waits until /api/ready answers. */
export async function startApi(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningApi> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...EXIT_WITH_PARENT, 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', APP_URL: baseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  killOnExit(child);

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`API did not become ready within ${timeoutMs} ms:\n${output}`);
  }
  return {
    baseUrl,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
