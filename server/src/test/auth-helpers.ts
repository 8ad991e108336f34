/**
 * Test helpers for anything that needs a signed-in user. Other modules' tests use exactly these, so the
 * signatures are kept stable:
 *
 *   const t = await createTestContext();
 *   const { agent, user } = await verifiedUser(t, { balanceTokens: 25 });  // signed in, email verified
 *   await agent.post('/api/tools/upscale').send({...});                    // X-XSRF-TOKEN is added for you
 *
 * - `xsrfAgent(t)`: a cookie-keeping supertest agent that sends the current XSRF token on every request.
 * - `csrfHeaders(agent)`: `{ 'X-XSRF-TOKEN': token }` for a plain agent (fetches the cookie when missing).
 *   Await it BEFORE creating the request: `const h = await csrfHeaders(a); await a.post(url).set(h)`,
 *   because supertest attaches the jar's cookies when the request is created.
 * - `signUp(agent, overrides?)`: a real POST /api/register (counts against the 10-per-hour IP limit of its
 *   app: create many users with `createUser` or `verifiedUser` instead).
 * - `signIn(agent, email, password)`: a real POST /api/login.
 * - `createUser(t, overrides?)`: an account made through the registration service (no HTTP, no limit).
 * - `verifiedUser(t, opts?)`: createUser + verified email + optional exact balance + a real login.
 * - `mailsTo(t, email)` / `waitForMail(t, email, subject)`: messages written to the app's mail outbox.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { CSRF_COOKIE_NAME, tokensToTenths, type RegisterInput } from '@imagestudio/contracts';
import { fromRoot } from '../config';
import { type CurrentUser, toCurrentUser, usersRepository as users } from '../modules/users';
import { registerUser } from '../modules/auth/auth.service';
import { applyEntryNow } from '../modules/ledger';
import type { MailMessage } from '../modules/mail';
import { connectDb, ensureDatabase } from '../lib/db';
import { migrateLatest, runSeeds } from '../lib/migrator';
import { uniqueEmail, type TestContext } from './harness';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';

/** Every account made by these helpers has this password unless told otherwise (meets the password rule). */
export const TEST_PASSWORD = 'Secret123';

/** The XSRF token the agent holds in its cookie jar, if any. */
export function xsrfCookie(agent: supertest.Agent): string | undefined {
  // supertest's agent keeps superagent's cookiejar; tests talk to the app on 127.0.0.1 over plain HTTP.
  const jar = (agent as unknown as { jar: { getCookie(name: string, access: object): { value: string } | undefined } })
    .jar;
  const cookie = jar.getCookie(CSRF_COOKIE_NAME, { domain: '127.0.0.1', path: '/', secure: false, script: false });
  return cookie ? decodeURIComponent(cookie.value) : undefined;
}

/** `{ 'X-XSRF-TOKEN': token }` for this agent, asking GET /api/csrf first when it has no XSRF cookie yet. */
export async function csrfHeaders(agent: supertest.Agent): Promise<Record<string, string>> {
  let token = xsrfCookie(agent);
  if (!token) {
    await agent.get('/api/csrf').expect(200);
    token = xsrfCookie(agent);
  }
  if (!token) throw new Error('the app did not set an XSRF-TOKEN cookie on GET /api/csrf');
  return { 'X-XSRF-TOKEN': token };
}

/**
 * A cookie-keeping agent that adds the XSRF header from its own cookie jar to every request, and
 * fetches a token first. Re-issued tokens (after login or logout) are picked up automatically.
 */
export async function xsrfAgent(t: TestContext): Promise<supertest.Agent> {
  const agent = t.agent();
  await csrfHeaders(agent);
  agent.use((req: supertest.Test) => {
    const token = xsrfCookie(agent);
    if (token) req.set('X-XSRF-TOKEN', token);
  });
  return agent;
}

/** A valid registration payload with a unique email; `overrides` replace or add fields. */
export function registrationPayload(
  overrides: Partial<Record<keyof RegisterInput, unknown>> & Record<string, unknown> = {},
) {
  return {
    name: 'Test',
    surname: 'User',
    email: uniqueEmail('signup'),
    phone: '+44 7911 123456',
    phoneE164: '+447911123456',
    password: TEST_PASSWORD,
    password_confirmation: TEST_PASSWORD,
    ...overrides,
  };
}

/** POST /api/register through the agent (with its XSRF header); returns the response and what was sent. */
export async function signUp(agent: supertest.Agent, overrides: Record<string, unknown> = {}) {
  const payload = registrationPayload(overrides);
  // Headers first: the agent attaches its cookies when the request is created.
  const headers = await csrfHeaders(agent);
  const res = await agent.post('/api/register').set(headers).send(payload);
  return { res, email: String(payload.email), password: String(payload.password), payload };
}

/** POST /api/login through the agent (with its XSRF header); returns the response. */
export async function signIn(agent: supertest.Agent, email: string, password: string, remember = false) {
  const headers = await csrfHeaders(agent);
  return agent.post('/api/login').set(headers).send({ username: email, password, remember });
}

/** Creates an account through the registration service (same grants and hashing as POST /api/register). */
export async function createUser(t: TestContext, overrides: Partial<RegisterInput> = {}) {
  const input = { ...registrationPayload(), ...overrides } as RegisterInput;
  const row = await registerUser(t.ctx, input);
  return { user: toCurrentUser(row), email: input.email, password: input.password };
}

export interface VerifiedUser {
  /** Signed in through POST /api/login; sends X-XSRF-TOKEN by itself. */
  agent: supertest.Agent;
  /** The users row (without the password hash) as it is after setup. */
  user: CurrentUser;
  email: string;
  password: string;
}

/**
 * A signed-in user with a verified email. With `balanceTokens`, an `adjustment` ledger entry sets the
 * balance to exactly that amount (so ledger sum = balance still holds).
 */
export async function verifiedUser(
  t: TestContext,
  opts: { balanceTokens?: number; email?: string; phone?: string; phoneE164?: string } = {},
): Promise<VerifiedUser> {
  const { balanceTokens, ...registration } = opts;
  const { user, email, password } = await createUser(t, registration);
  await users.markEmailVerified(t.ctx.db, user.id);
  if (balanceTokens !== undefined) {
    const delta = tokensToTenths(balanceTokens) - Number(user.balance_tenths);
    if (delta !== 0) {
      await applyEntryNow(t.ctx.db, {
        userId: user.id,
        deltaTenths: delta,
        kind: 'adjustment',
        idempotencyKey: `test-balance:${user.id}:${randomUUID()}`,
        reason: 'test setup',
      });
    }
  }
  const agent = await xsrfAgent(t);
  await signIn(agent, email, password).then((res) => {
    if (res.status !== 200) throw new Error(`test login failed: ${res.status} ${JSON.stringify(res.body)}`);
  });
  const fresh = await users.findById(t.ctx.db, user.id);
  return { agent, user: toCurrentUser(fresh as users.UserRow), email, password };
}

/** Every message the app wrote to its outbox for this address (tests run without SMTP_URL). */
export function mailsTo(t: TestContext, email: string): MailMessage[] {
  const file = fromRoot(t.config, t.config.MAIL_OUTBOX_FILE);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  // Whole lines only: a message being appended right now is read on the next call.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MailMessage)
    .filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

/** Waits (up to 3 s) for the count-th message to `email` whose subject contains `subject`; mail is sent in the background. */
export async function waitForMail(t: TestContext, email: string, subject: string, count = 1): Promise<MailMessage> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const found = mailsTo(t, email).filter((m) => m.subject.includes(subject));
    if (found.length >= count) return found[count - 1] as MailMessage;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" #${count} to ${email} within 3 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The agent's cookies as one `Cookie` header value, to replay a session from another client or app. */
export function cookieHeader(agent: supertest.Agent): string {
  const jar = (agent as unknown as { jar: { getCookies(access: object): { toValueString(): string } } }).jar;
  return jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false }).toValueString();
}

/**
 * A migrated, seeded database of its own (`<TEST_DATABASE_URL>_<suffix>`), for the few tests that flip
 * site-wide settings (registration switch, welcome bonus, verification requirement) or work on every row
 * of a table (reconcilers), and must not race tests sharing the main test database. Pass it as
 * DATABASE_URL to createTestContext. `fresh` drops it first, for tests whose outcome depends on what
 * earlier runs left behind.
 */
export async function isolatedTestDatabase(suffix: string, options: { fresh?: boolean } = {}): Promise<string> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `${url.pathname}_${suffix}`;
  if (options.fresh) await dropDatabase(url.toString());
  await ensureDatabase(url.toString());
  const db = await connectDb(url.toString(), { min: 0, max: 1 });
  try {
    // Two test files may prepare the same database at once: a session advisory lock (the pool has one
    // connection, so migrations run on the locking session) makes the second wait; closing releases it.
    await db.raw('select pg_advisory_lock(hashtext(?))', [url.pathname]);
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
  return url.toString();
}

/** Drops the database named in `url` (test databases only), ending any connection still open to it. */
async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/_test(_[a-z0-9_]+)?$/.test(name)) throw new Error(`refusing to drop ${name}: not a test database`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const db = await connectDb(admin.toString(), { min: 0, max: 1 });
  try {
    await db.raw(`drop database if exists "${name}" with (force)`);
  } finally {
    await db.destroy();
  }
}
