import supertest from 'supertest';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { cookieHeader, createUser, csrfHeaders } from '../../test/auth-helpers';

describe('login limits and timing', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  /** A login attempt from `ip` on a fresh session. */
  async function attempt(username: string, password: string, ip: string) {
    const agent = t.agent();
    const headers = await csrfHeaders(agent);
    return supertest(t.app).post('/api/login').set('Cookie', cookieHeader(agent)).set(headers).set('X-Forwarded-For', ip).send({ username, password });
  }

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
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(email, 'Wrong1234', `198.51.100.${batch * 10 + i + 1}`)));
      expect(results.every((r) => r.status === 422)).toBe(true);
    }
    expect((await attempt(email, password, '198.51.100.200')).status).toBe(429);
  });

  it('spends about the same time on unknown emails as on wrong passwords', async () => {
    const { email } = await createUser(t);
    const time = async (username: string, ip: string) => {
      const started = process.hrtime.bigint();
      const res = await attempt(username, 'Wrong1234', ip);
      expect(res.status).toBe(422);
      return Number(process.hrtime.bigint() - started) / 1e6;
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
