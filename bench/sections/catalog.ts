/**
 * Catalog: throughput of GET /api/packs, /api/settings and /api/localizations on the real app (all
 * middleware, real Postgres and Redis, catalog served from the in-process cache) against a bare Express
 * hello-world measured in the same run. Requests carry whatever cookies a browser gets from its first
 * catalog call; the catalog is public and mounted before the session, so none are set and no session
 * work is done. Goal: >= 70% of the bare figure.
 */
import { startBenchApp } from '../lib/app';
import { loadRow, ratioGoal, ratioToBare } from '../lib/compare';
import { startHelloWorld } from '../lib/hello';
import { measureLoad } from '../lib/load';
import type { BenchSection } from '../lib/types';

const GOAL_RATIO = 0.7;
const PATHS = ['/api/packs?currency=EUR', '/api/settings', '/api/localizations?lang_id=en'];

/** The cookies a browser keeps after its first catalog call (none: the catalog is served without a session). */
async function browserCookies(base: string): Promise<string> {
  const res = await fetch(`${base}/api/settings`);
  if (!res.ok) throw new Error(`GET /api/settings answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export default async function catalog(): Promise<BenchSection> {
  const app = await startBenchApp();
  const hello = await startHelloWorld();
  const rows: BenchSection['rows'] = [];
  const goals: BenchSection['goals'] = [];
  try {
    const cookie = await browserCookies(app.base);
    for (const p of PATHS)
      await measureLoad(`${app.base}${p}`, { method: 'GET', durationSeconds: 1, headers: { cookie } }); // warm caches and JIT
    const bare = await measureLoad(hello.url, { method: 'GET' });
    rows.push(loadRow('bare express hello-world', bare, 1));
    for (const p of PATHS) {
      const r = await measureLoad(`${app.base}${p}`, { method: 'GET', headers: { cookie } });
      const ratio = ratioToBare(r, bare);
      rows.push(loadRow(`GET ${p}`, r, ratio));
      goals.push(ratioGoal(`GET ${p.split('?')[0]} vs bare Express`, ratio, r, GOAL_RATIO));
    }
  } finally {
    await hello.close();
    await app.close();
  }
  return {
    name: 'catalog',
    rows,
    goals,
    notes: [
      '20 connections, 5 s per endpoint, server and load generator share this machine; catalog routes run before the session middleware',
    ],
  };
}
