import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureDatabase } from './lib/db';
import { TEST_DATABASE_URL, TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { freePort } from '@imagestudio/runtime/testing';

/**
 * The production image runs compiled JavaScript with plain `node`: this builds dist/ as the Dockerfile does,
 * migrates and seeds a fresh database with the compiled migration command, and starts the compiled API and
 * worker, which must find each other through Redis and S3 just as the TypeScript sources do.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DB_URL = `${TEST_DATABASE_URL}_compiled`;

/** Starts `node dist/<name>.js` and resolves once its output contains `ready`. */
function startCompiled(
  name: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', `${name}.js`)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess | undefined): Promise<number | null> {
  if (!child || child.exitCode !== null) return Promise.resolve(child?.exitCode ?? null);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

describe('the compiled production build', () => {
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  afterAll(async () => {
    await stop(worker);
    await stop(api);
  });

  it('builds, migrates with the same migration names, and runs the API and a worker with plain node', async () => {
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);

    await ensureDatabase(DB_URL);
    for (const command of ['latest', 'seed']) {
      const run = spawnSync(process.execPath, ['dist/migrate.js', command], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: DB_URL },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
    }
    // The TypeScript migrator must see the compiled run's history as its own.
    const fromSource = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts', 'latest'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: DB_URL },
      encoding: 'utf8',
    });
    expect(fromSource.stdout).toContain('database is up to date');

    const prefix = `compiled-${Date.now()}`;
    const shared = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_REDIS_DB: String(TEST_QUEUE_REDIS_DB),
      QUEUE_PREFIX: prefix,
    };
    const port = await freePort();
    const started = await startCompiled(
      'server',
      {
        ...shared,
        DATABASE_URL: DB_URL,
        PORT: String(port),
        HOST: '127.0.0.1',
        S3_LOCAL_PORT: '0',
        S3_LOCAL_DIR: 'data/s3-compiled-test',
        RATE_LIMIT_PREFIX: prefix,
      },
      /"msg":"API listening"/,
    );
    api = started.child;
    const s3 = /"endpoint":"(http:[^"]+)"/.exec(started.output())![1]!;
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(await ready.json()).toEqual({
      status: 'OK',
      payload: { postgres: 'ok', redis: 'ok', queue: 'ok', s3: 'ok' },
    });

    const w = await startCompiled(
      'worker',
      { ...shared, S3_ENDPOINT: s3, WORKER_WARMUP_RUNS: '0', WORKER_EXECUTION_PROVIDERS: 'cpu' },
      /"msg":"worker started"/,
    );
    worker = w.child;
    expect(w.output()).toMatch(/"tools":\[[^\]]*"remove-background"[^\]]*\]/);
    expect(await stop(worker)).toBe(0);
    expect(await stop(api)).toBe(0);
  }, 120_000);
});
