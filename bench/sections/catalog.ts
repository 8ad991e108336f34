/**
 * Catalog: throughput of GET /api/packs, /api/settings and /api/localizations on the real app (all
 * middleware, real Postgres and Redis, catalog served from the in-process cache) against a bare Express
 * hello-world measured in the same run. Requests carry the session and XSRF cookies a browser holds after
 * its first call, so the session store's work is counted too. Goal: >= 70% of the bare figure.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/src/app';
import { closeDeps, openDeps } from '../../server/src/bootstrap';
import { loadConfig } from '../../server/src/config';
import { connectDb, ensureDatabase } from '../../server/src/lib/db';
import { createLogger } from '../../server/src/lib/logger';
import { migrateLatest, runSeeds } from '../../server/src/lib/migrator';
import { startHelloWorld } from '../lib/hello';
import { measureLoad } from '../lib/load';
import type { BenchSection } from '../lib/types';

const GOAL_RATIO = 0.7;
const PATHS = ['/api/packs?currency=EUR', '/api/settings', '/api/localizations?lang_id=en'];

/** Migrates and seeds the configured database (DATABASE_URL), then serves the real app on loopback. */
async function startApp(): Promise<{ base: string; close: () => Promise<void> }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', S3_LOCAL_PORT: '0' });
  await ensureDatabase(config.DATABASE_URL);
  const db = await connectDb(config.DATABASE_URL, { min: 0, max: 2 });
  try {
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
  const deps = await openDeps(config, createLogger('silent'));
  const server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDeps(deps);
    },
  };
}

/** The cookies a browser keeps after its first catalog call (session + XSRF-TOKEN). */
async function browserCookies(base: string): Promise<string> {
  const res = await fetch(`${base}/api/settings`);
  if (!res.ok) throw new Error(`GET /api/settings answered ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

export default async function catalog(): Promise<BenchSection> {
  const app = await startApp();
  const hello = await startHelloWorld();
  const rows: BenchSection['rows'] = [];
  const goals: BenchSection['goals'] = [];
  try {
    const cookie = await browserCookies(app.base);
    for (const p of PATHS) await measureLoad(`${app.base}${p}`, { method: 'GET', durationSeconds: 1, headers: { cookie } }); // warm caches and JIT
    const bare = await measureLoad(hello.url, { method: 'GET' });
    rows.push({ endpoint: 'bare express hello-world', 'req/s': bare.requestsPerSec, 'p50 ms': bare.p50Ms, 'p99 ms': bare.p99Ms, ratio: 1, errors: bare.errors + bare.non2xx });
    for (const p of PATHS) {
      const r = await measureLoad(`${app.base}${p}`, { method: 'GET', headers: { cookie } });
      const ratio = Math.round((r.requestsPerSec / bare.requestsPerSec) * 100) / 100;
      rows.push({ endpoint: `GET ${p}`, 'req/s': r.requestsPerSec, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, ratio, errors: r.errors + r.non2xx });
      goals.push({ label: `GET ${p.split('?')[0]} vs bare Express`, value: ratio, target: `>= ${GOAL_RATIO}`, met: ratio >= GOAL_RATIO && r.errors + r.non2xx === 0 });
    }
  } finally {
    await hello.close();
    await app.close();
  }
  return {
    name: 'catalog',
    rows,
    goals,
    notes: ['20 connections, 5 s per endpoint, server and load generator share this machine; requests carry a browser session cookie'],
  };
}
