/**
 * `npm start`: the one-command local run. Finds Postgres and Redis (exits with one line on how to start
 * them if either is down), creates and migrates the database, seeds it, builds the client and prepares
 * the models when missing, then runs the API and one worker together. Ctrl-C stops both cleanly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, fromRoot, ConfigError } from '../server/src/config';
import { connectDb, ensureDatabase } from '../server/src/lib/db';
import { migrateLatest, runSeeds } from '../server/src/lib/migrator';
import { connectRedis, EXIT_WITH_PARENT, superviseApiAndWorker } from '@imagestudio/runtime';

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (fs.existsSync(path.join(ROOT, '.env'))) process.loadEnvFile(path.join(ROOT, '.env'));

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

async function checkServices(config: ReturnType<typeof loadConfig>): Promise<void> {
  try {
    await ensureDatabase(config.DATABASE_URL);
  } catch (err) {
    fail(
      `Postgres is not reachable (${(err as Error).message}). Start it: "sudo pg_ctlcluster 15 main start" ` +
        `(Debian), "brew services start postgresql" (macOS) or "docker compose up -d postgres", or set DATABASE_URL.`,
    );
  }
  try {
    const redis = await connectRedis(config.REDIS_URL);
    await redis.quit();
  } catch (err) {
    fail(
      `Redis is not reachable (${(err as Error).message}). Start it: "redis-server --daemonize yes" ` +
        `or "docker compose up -d redis", or set REDIS_URL.`,
    );
  }
}

function runStep(label: string, args: string[]): void {
  console.log(`> ${label}`);
  const result = spawnSync(NPM, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) fail(`${label} failed (exit ${result.status}).`);
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) fail('The API exited during start-up; see its log above.');
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  fail(`The API did not answer ${url} within ${timeoutMs / 1000} s.`);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  await checkServices(config);

  const db = await connectDb(config.DATABASE_URL, { min: 0, max: 2 });
  try {
    const applied = await migrateLatest(db);
    console.log(applied.length ? `> migrated: ${applied.length} migration(s)` : '> database is up to date');
    await runSeeds(db);
    console.log('> seeded');
  } finally {
    await db.destroy();
  }

  // Idempotent and offline once the cache holds every model with its recorded hash. Before the client build,
  // which makes the landing pages' before/after examples with these models.
  runStep('preparing models', ['run', 'models']);
  if (!fs.existsSync(path.join(fromRoot(config, config.CLIENT_DIST_DIR), 'index.html'))) {
    runStep('building the client', ['run', 'build', '-w', 'client']);
  }

  const api = spawn(process.execPath, ['--import', 'tsx', ...EXIT_WITH_PARENT, path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  const localHost = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  await waitForHealth(`http://${localHost}:${config.PORT}/api/health`, api);

  // Without S3_ENDPOINT the API runs the embedded S3 server; the worker uses that same endpoint.
  const workerEnv = { ...process.env };
  if (!config.S3_ENDPOINT) workerEnv.S3_ENDPOINT = `http://127.0.0.1:${config.S3_LOCAL_PORT}`;
  const startWorker = () =>
    spawn(process.execPath, ['--import', 'tsx', ...EXIT_WITH_PARENT, path.join(ROOT, 'worker/src/main.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: workerEnv,
    });
  // A dead worker is restarted with a doubling delay (1 s up to 30 s; one that ran a minute starts over at
  // 1 s); a dead API stops everything (runtime/src/supervisor.ts).
  const supervisor = superviseApiAndWorker(api, {
    startWorker,
    log: (line) => console.error(line),
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', () => supervisor.stop('SIGINT', 0));
  process.on('SIGTERM', () => supervisor.stop('SIGTERM', 0));
  console.log(`\nImage Studio is running at ${config.APP_URL} (Ctrl-C stops it)\n`);
}

main().catch((err: Error) => fail(`npm start failed: ${err.message}`));
