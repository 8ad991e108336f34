import { createTestContext, type TestContext } from '../test/harness';
import { verifiedUser } from '../test/auth-helpers';

/** Per-address limits on what an anonymous caller can make the API store or look up. */
let t: TestContext;

describe('GET /api/csrf', () => {
  beforeAll(async () => {
    t = await createTestContext({ CSRF_SESSIONS_PER_IP_PER_10_MIN: '3' });
  });
  afterAll(() => t.close());

  it('starts at most CSRF_SESSIONS_PER_IP_PER_10_MIN guest sessions per address; a browser that has one keeps it', async () => {
    const first = t.agent();
    await first.get('/api/csrf').expect(200);
    await t.agent().get('/api/csrf').expect(200);
    await t.agent().get('/api/csrf').expect(200);
    const refused = await t.agent().get('/api/csrf').expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // The first browser's session already holds its token: asking again stores nothing and is not counted.
    await first.get('/api/csrf').expect(200);
  });
});

describe('unknown API keys', () => {
  beforeAll(async () => {
    t = await createTestContext({ API_KEY_FAILURES_PER_IP_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('are limited per address, concurrent guesses included, while a good key is not counted', async () => {
    const { agent } = await verifiedUser(t);
    const key = (await agent.post('/api/user/api-keys').send({ name: 'CI' }).expect(201)).body.payload.key as string;
    for (let i = 0; i < 8; i += 1)
      await t.agent().get('/api/user/profile').set('Authorization', `Bearer ${key}`).expect(200);

    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t
          .agent()
          .get('/api/user/profile')
          .set('X-Api-Key', `isk_live_${String(i).padStart(43, 'x')}`),
      ),
    );
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(guesses.find((r) => r.status === 429)!.body.message).toBe(
      'Too many requests with an invalid API key. Please wait a moment.',
    );
  });
});
