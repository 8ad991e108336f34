/**
 * Accounts: POST /api/login latency with 20 clients signing in at once (argon2id verify + session
 * regeneration in Redis), and GET /api/user/profile throughput with a real signed-in session compared
 * with a bare Express hello-world measured in the same run. Goal: profile >= 60% of the bare figure.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../server/src/app';
import { closeDeps, openDeps } from '../../server/src/bootstrap';
import { loadConfig } from '../../server/src/config';
import type { AppContext } from '../../server/src/context';
import { connectDb, ensureDatabase } from '../../server/src/lib/db';
import { createLogger } from '../../server/src/lib/logger';
import { migrateLatest, runSeeds } from '../../server/src/lib/migrator';
import { registerUser } from '../../server/src/modules/auth/auth.service';
import { markEmailVerified } from '../../server/src/modules/users/users.repository';
import { startHelloWorld } from '../lib/hello';
import { measureLoad, percentile } from '../lib/load';
import type { BenchSection } from '../lib/types';

const GOAL_RATIO = 0.6;
const LOGIN_CLIENTS = 20;
const LOGINS_PER_CLIENT = 15;
const PASSWORD = 'Bench1234';

/** Migrates and seeds DATABASE_URL, then serves the real app on loopback. */
async function startApp(): Promise<{ base: string; ctx: AppContext; close: () => Promise<void> }> {
  // A limiter prefix of its own, so repeated runs never trip the registration or login limits.
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', S3_LOCAL_PORT: '0', RATE_LIMIT_PREFIX: `rl-bench-${randomUUID().slice(0, 8)}` });
  await ensureDatabase(config.DATABASE_URL);
  const db = await connectDb(config.DATABASE_URL, { min: 0, max: 2 });
  try {
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
  const deps = await openDeps(config, createLogger('silent'));
  const app = createApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    ctx: app.locals.ctx as AppContext,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDeps(deps);
    },
  };
}

/** Cookie header from a response's Set-Cookie lines merged over the cookies already held. */
function mergeCookies(held: Map<string, string>, res: Response): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = (pair ?? '').indexOf('=');
    if (eq > 0) held.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return held;
}
const cookieString = (held: Map<string, string>) => [...held].map(([k, v]) => `${k}=${v}`).join('; ');

/** One browser signing in: GET (session + XSRF cookie), then the timed POST /api/login. Returns ms and cookies. */
async function timedLogin(base: string, email: string): Promise<{ ms: number; cookies: Map<string, string> }> {
  const cookies = mergeCookies(new Map(), await fetch(`${base}/api/is-auth`));
  const token = decodeURIComponent(cookies.get('XSRF-TOKEN') ?? '');
  const started = performance.now();
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-xsrf-token': token, cookie: cookieString(cookies) },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  return { ms, cookies: mergeCookies(cookies, res) };
}

export default async function auth(): Promise<BenchSection> {
  const app = await startApp();
  const hello = await startHelloWorld();
  const rows: BenchSection['rows'] = [];
  const goals: BenchSection['goals'] = [];
  try {
    const email = `bench-${randomUUID().slice(0, 12)}@example.test`;
    const user = await registerUser(app.ctx, {
      name: 'Bench',
      surname: 'User',
      email,
      phone: '+33612345678',
      phoneE164: '+33612345678',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    await markEmailVerified(app.ctx.db, user.id);

    // Login latency: 20 clients, each signing in repeatedly on fresh sessions.
    await timedLogin(app.base, email); // warm-up
    const started = performance.now();
    const perClient = await Promise.all(
      Array.from({ length: LOGIN_CLIENTS }, async () => {
        const times: number[] = [];
        for (let i = 0; i < LOGINS_PER_CLIENT; i += 1) times.push((await timedLogin(app.base, email)).ms);
        return times;
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const logins = perClient.flat();
    rows.push({
      endpoint: `POST /api/login (${LOGIN_CLIENTS} concurrent clients)`,
      'req/s': Math.round(logins.length / elapsedS),
      'p50 ms': Math.round(percentile(logins, 50)),
      'p99 ms': Math.round(percentile(logins, 99)),
      ratio: '-',
      errors: 0,
    });

    // Profile throughput with the cookies of one signed-in browser.
    const { cookies } = await timedLogin(app.base, email);
    const headers = { cookie: cookieString(cookies) };
    const profileUrl = `${app.base}/api/user/profile`;
    await measureLoad(profileUrl, { method: 'GET', durationSeconds: 1, headers }); // warm-up
    await measureLoad(hello.url, { method: 'GET', durationSeconds: 1 });
    const bare = await measureLoad(hello.url, { method: 'GET' });
    // The app's floor: the same middleware stack with no session at all (health is never given one).
    const floor = await measureLoad(`${app.base}/api/health`, { method: 'GET' });
    const profile = await measureLoad(profileUrl, { method: 'GET', headers });
    const ratio = Math.round((profile.requestsPerSec / bare.requestsPerSec) * 100) / 100;
    rows.push({ endpoint: 'bare express hello-world', 'req/s': bare.requestsPerSec, 'p50 ms': bare.p50Ms, 'p99 ms': bare.p99Ms, ratio: 1, errors: bare.errors + bare.non2xx });
    const floorRatio = Math.round((floor.requestsPerSec / bare.requestsPerSec) * 100) / 100;
    rows.push({ endpoint: 'GET /api/health (app floor, no session)', 'req/s': floor.requestsPerSec, 'p50 ms': floor.p50Ms, 'p99 ms': floor.p99Ms, ratio: floorRatio, errors: floor.errors + floor.non2xx });
    rows.push({ endpoint: 'GET /api/user/profile (signed in)', 'req/s': profile.requestsPerSec, 'p50 ms': profile.p50Ms, 'p99 ms': profile.p99Ms, ratio, errors: profile.errors + profile.non2xx });
    goals.push({ label: 'GET /api/user/profile vs bare Express', value: ratio, target: `>= ${GOAL_RATIO}`, met: ratio >= GOAL_RATIO && profile.errors + profile.non2xx === 0 });
  } finally {
    await hello.close();
    await app.close();
  }
  return {
    name: 'auth',
    rows,
    goals,
    notes: [
      `login: ${LOGIN_CLIENTS} clients x ${LOGINS_PER_CLIENT} sign-ins each on fresh sessions, argon2id at the configured cost; time of the POST only`,
      'profile: 20 connections for 5 s with one signed-in session (Redis session read + touch, user row, profile query); server and load generator share this machine',
    ],
  };
}
