/**
 * Accounts: POST /api/login latency with 20 clients signing in at once (argon2id verify + session
 * regeneration in Redis), and GET /api/user/profile throughput with a real signed-in session compared
 * with a bare Express hello-world and with the same hello-world behind the session layer alone, both measured in
 * the same run, in alternating rounds. Goal: profile >= 50% of the session-layer-only figure (the ceiling of any
 * signed-in route), as the median of the rounds.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { startBenchApp } from '../lib/app';
import { failures, loadRow, ratioToBare } from '../lib/compare';
import { cookieString, mergeCookies } from '../lib/cookies';
import { startHelloWorld, startSessionOnlyHello } from '../lib/hello';
import { measureLoad, percentile, type LoadResult } from '../lib/load';
import { sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';
import { verifiedBenchUser } from '../lib/users';

const GOAL_RATIO_OF_SESSION_ONLY = 0.5;
/** Alternating session-only / profile rounds, and the seconds of each run. */
const PAIRED_ROUNDS = sized(5, 1);
const ROUND_S = sized(3, 1);
const LOGIN_CLIENTS = sized(20, 2);
const LOGINS_PER_CLIENT = sized(15, 2);
const PASSWORD = 'Bench1234';

/** One browser signing in: GET /api/csrf (session + XSRF cookie), then the timed POST /api/login. Returns ms and cookies. */
async function timedLogin(base: string, email: string): Promise<{ ms: number; cookies: Map<string, string> }> {
  const csrf = await fetch(`${base}/api/csrf`);
  if (csrf.status !== 200) throw new Error(`GET /api/csrf answered ${csrf.status}: ${await csrf.text()}`);
  const cookies = mergeCookies(new Map(), csrf);
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
  // A limiter prefix of its own, so repeated runs never trip the registration or login limits; and room for the
  // 300 fresh sessions the sign-ins make from one address (the per-address allowance of new sessions is 120 in
  // 10 minutes, past which GET /api/csrf answers 429 and the sign-in has no token).
  const app = await startBenchApp({
    RATE_LIMIT_PREFIX: `rl-bench-${randomUUID().slice(0, 8)}`,
    CSRF_SESSIONS_PER_IP_PER_10_MIN: String(LOGIN_CLIENTS * LOGINS_PER_CLIENT * 2),
  });
  const hello = await startHelloWorld();
  const sessionOnly = await startSessionOnlyHello(app.ctx.redis);
  const rows: BenchSection['rows'] = [];
  const goals: BenchSection['goals'] = [];
  const roundRatios: number[] = [];
  try {
    // One account per client: the login limits reserve an attempt per account and address before the password
    // is checked, so 20 simultaneous sign-ins to one account would be refused as a guessing burst.
    const emails = await Promise.all(
      Array.from({ length: LOGIN_CLIENTS }, () => verifiedBenchUser(app, PASSWORD, 'auth')),
    );
    const email = emails[0]!;

    // Login latency: 20 clients, each signing in repeatedly on fresh sessions.
    await timedLogin(app.base, email); // warm-up
    const started = performance.now();
    const perClient = await Promise.all(
      emails.map(async (clientEmail) => {
        const times: number[] = [];
        for (let i = 0; i < LOGINS_PER_CLIENT; i += 1) times.push((await timedLogin(app.base, clientEmail)).ms);
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
    // The ceiling the session layer alone leaves: hello-world behind express-session + connect-redis.
    const sessionCookie = cookieString(mergeCookies(new Map(), await fetch(sessionOnly.signInUrl)));
    const check = (await (await fetch(sessionOnly.url, { headers: { cookie: sessionCookie } })).json()) as {
      signedIn: boolean;
    };
    if (!check.signedIn) throw new Error('the session-only reference app did not read its session back');
    // The two sides of the goal are measured in alternating rounds (A B, then B A, ...) and the goal uses the
    // median of the rounds' ratios: other work on the machine that comes and goes during the run then weighs on
    // both sides alike instead of on whichever happened to run at the wrong moment.
    const rounds: Array<{ ceiling: LoadResult; profile: LoadResult; ratio: number }> = [];
    for (let round = 0; round < PAIRED_ROUNDS; round += 1) {
      const ceilingRun = () =>
        measureLoad(sessionOnly.url, { method: 'GET', headers: { cookie: sessionCookie }, durationSeconds: ROUND_S });
      const profileRun = () => measureLoad(profileUrl, { method: 'GET', headers, durationSeconds: ROUND_S });
      let ceiling: LoadResult;
      let profile: LoadResult;
      if (round % 2 === 0) {
        ceiling = await ceilingRun();
        profile = await profileRun();
      } else {
        profile = await profileRun();
        ceiling = await ceilingRun();
      }
      rounds.push({ ceiling, profile, ratio: ratioToBare(profile, ceiling) });
    }
    const middle = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
    const failed = rounds.some((r) => failures(r.profile) + failures(r.ceiling) > 0);
    rows.push(loadRow('bare express hello-world', bare, 1));
    rows.push(loadRow('GET /api/health (app floor, no session)', floor, ratioToBare(floor, bare)));
    rows.push(
      loadRow(
        'hello-world behind express-session + connect-redis only (signed in; median round)',
        middle.ceiling,
        ratioToBare(middle.ceiling, bare),
      ),
    );
    rows.push(
      loadRow('GET /api/user/profile (signed in; median round)', middle.profile, ratioToBare(middle.profile, bare)),
    );
    // The ratio column stays "of bare Express"; the goal is the profile's share of the session-only figure.
    goals.push({
      label: 'GET /api/user/profile vs the session-layer-only hello-world (median of paired rounds)',
      value: middle.ratio,
      target: `>= ${GOAL_RATIO_OF_SESSION_ONLY}`,
      met: middle.ratio >= GOAL_RATIO_OF_SESSION_ONLY && !failed,
    });
    roundRatios.push(...rounds.map((r) => r.ratio));
  } finally {
    await sessionOnly.close();
    await hello.close();
    await app.close();
  }
  return {
    name: 'auth',
    rows,
    goals,
    notes: [
      `login: ${LOGIN_CLIENTS} clients (one account each) x ${LOGINS_PER_CLIENT} sign-ins each on fresh sessions, argon2id at the configured cost; time of the POST only`,
      `profile vs session-only: ${PAIRED_ROUNDS} alternating rounds of ${ROUND_S} s each, ratios ${roundRatios.join(', ')}`,
      'profile: 20 connections with one signed-in session (Redis session read; the user row comes from the process cache of session users; the expiry is re-saved at most once a SESSION_REFRESH_INTERVAL_S); server and load generator share this machine',
      'the session-only row is the ceiling of any signed-in route here: express-session + connect-redis in front of the hello-world, nothing else',
    ],
  };
}
