import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/**
 * A redis-server of a test's own (free port, temporary folder, AOF on like production's queue Redis), so
 * a test can take Redis away and bring it back without touching the shared server other runs use.
 */
export interface PrivateRedis {
  port: number;
  /** `redis://127.0.0.1:<port>/<db>` */
  url(db?: number): string;
  /** SHUTDOWN (as an operator's `redis-cli shutdown`): connections drop, data stays in the AOF. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it answers. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`private redis-server on ${port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end('SHUTDOWN\r\n'));
      socket.once('close', () => resolve());
      socket.once('error', () => resolve());
    });
    await exited;
  };
  await start();
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    stop,
    start,
    dispose: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
