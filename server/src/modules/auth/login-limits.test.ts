import supertest from 'supertest';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { cookieHeader, createUser, csrfHeaders, registrationPayload } from '../../test/auth-helpers';
import { DEVICE_COOKIE_NAME } from './device-cookie';

describe('login limits and timing', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Every test here starts many guest sessions from one address: the CSRF session limit is not under test.
    t = await createTestContext({ TRUST_PROXY: 'true', CSRF_SESSIONS_PER_IP_PER_10_MIN: '100000' });
  });
  afterAll(() => t.close());

  /** A login attempt from `ip` on a fresh browser, ready to send (so a burst can leave at once). */
  async function prepared(username: string, password: string, ip: string, extraCookie = '') {
    const agent = t.agent();
    const headers = await csrfHeaders(agent);
    const cookies = [cookieHeader(agent), extraCookie].filter(Boolean).join('; ');
    return () =>
      supertest(t.app)
        .post('/api/login')
        .set('Cookie', cookies)
        .set(headers)
        .set('X-Forwarded-For', ip)
        .send({ username, password });
  }
  const attempt = async (username: string, password: string, ip: string, extraCookie = '') =>
    (await prepared(username, password, ip, extraCookie))();
  const statusCounts = (replies: Array<{ status: number }>) =>
    replies.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

  it('verifies at most 10 of 60 concurrent wrong passwords from one address; the rest get 429', async () => {
    const { email } = await createUser(t);
    const sends = await Promise.all(Array.from({ length: 60 }, () => prepared(email, 'Wrong1234', '203.0.113.30')));
    const counts = statusCounts(await Promise.all(sends.map((send) => send())));
    expect(counts).toEqual({ 422: 10, 429: 50 });
  });

  it('does not let the right password in after 39 guesses sent in the same burst', async () => {
    const { email, password } = await createUser(t);
    const sends = await Promise.all([
      ...Array.from({ length: 39 }, () => prepared(email, 'Wrong1234', '203.0.113.31')),
      prepared(email, password, '203.0.113.31'),
    ]);
    const replies = await Promise.all(sends.map((send) => send()));
    const counts = statusCounts(replies);
    // Exactly ten attempts were verified; the right password only succeeds if it was one of them.
    expect((counts[422] ?? 0) + (counts[200] ?? 0)).toBe(10);
    expect(counts[429]).toBe(30);
  });

  it('keeps a device that signed in before signing in after the account limit was used up elsewhere', async () => {
    const { email, password } = await createUser(t);
    const first = await attempt(email, password, '203.0.113.40');
    expect(first.status).toBe(200);
    const device = (first.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith(`${DEVICE_COOKIE_NAME}=`),
    );
    expect(device).toMatch(/HttpOnly/i);
    const deviceCookie = (device as string).split(';')[0] as string;
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => attempt(email, 'Wrong1234', `198.51.100.${batch * 10 + i + 1}`)),
      );
    }
    // A new browser, even from the owner's address, is held by the account limit...
    expect((await attempt(email, password, '203.0.113.40')).status).toBe(429);
    // ...and so is a forged or another account's device cookie...
    const [nonce] = deviceCookie.slice(DEVICE_COOKIE_NAME.length + 1).split('.');
    expect((await attempt(email, password, '203.0.113.40', `${DEVICE_COOKIE_NAME}=${nonce}.forged`)).status).toBe(429);
    // ...but the owner's browser, from any address, signs in.
    expect((await attempt(email, password, '192.0.2.99', deviceCookie)).status).toBe(200);
    // The device still has its own consecutive-failure limit.
    for (let i = 0; i < 10; i += 1)
      expect((await attempt(email, 'Wrong1234', '192.0.2.99', deviceCookie)).status).toBe(422);
    expect((await attempt(email, password, '192.0.2.99', deviceCookie)).status).toBe(429);
  });

  it('lets 10 of 30 concurrent registrations from one address through and answers 429 to the rest', async () => {
    const sends = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const agent = t.agent();
        const headers = await csrfHeaders(agent);
        return () =>
          supertest(t.app)
            .post('/api/register')
            .set('Cookie', cookieHeader(agent))
            .set(headers)
            .set('X-Forwarded-For', '203.0.113.60')
            .send(registrationPayload());
      }),
    );
    expect(statusCounts(await Promise.all(sends.map((send) => send())))).toEqual({ 201: 10, 429: 20 });
  }, 60_000);

  it('answers 429 after 10 consecutive failures for one email and IP, even with the right password', async () => {
    const { email, password } = await createUser(t);
    for (let i = 0; i < 10; i += 1) expect((await attempt(email, 'Wrong1234', '203.0.113.10')).status).toBe(422);
    const blocked = await attempt(email, password, '203.0.113.10');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ status: 'ERROR', code: 'rate_limited' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not blocked by this pair's count.
    expect((await attempt(email, password, '203.0.113.11')).status).toBe(200);
  });

  it('clears the consecutive count on a successful login', async () => {
    const { email, password } = await createUser(t);
    for (let i = 0; i < 9; i += 1) await attempt(email, 'Wrong1234', '203.0.113.20');
    expect((await attempt(email, password, '203.0.113.20')).status).toBe(200);
    for (let i = 0; i < 9; i += 1) await attempt(email, 'Wrong1234', '203.0.113.20');
    expect((await attempt(email, password, '203.0.113.20')).status).toBe(200);
  });

  it('answers 429 after 100 failures in an hour for one account, from any addresses', async () => {
    const { email, password } = await createUser(t);
    for (let batch = 0; batch < 10; batch += 1) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => attempt(email, 'Wrong1234', `198.51.100.${batch * 10 + i + 1}`)),
      );
      expect(results.every((r) => r.status === 422)).toBe(true);
    }
    expect((await attempt(email, password, '198.51.100.200')).status).toBe(429);
  });

  it('spends about the same time on unknown emails as on wrong passwords', async () => {
    const { email } = await createUser(t);
    // The API runs in this process and argon2 on its thread pool, so the process's CPU time is the work each
    // attempt cost; a wall clock would also count the time other test files held the machine's cores.
    const time = async (username: string, ip: string) => {
      const started = process.cpuUsage();
      const res = await attempt(username, 'Wrong1234', ip);
      expect(res.status).toBe(422);
      const { user, system } = process.cpuUsage(started);
      return (user + system) / 1000;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await time(email, `192.0.2.${i + 1}`));
      unknown.push(await time(uniqueEmail('ghost'), `192.0.2.${i + 1}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2] as number;
    // Without the dummy hash an unknown email would skip argon2 entirely (a fraction of the time).
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  });
});
