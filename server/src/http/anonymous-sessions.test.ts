import { createTestContext, type TestContext } from '../test/harness';
import { startPrivateRedis, type PrivateRedis } from '@imagestudio/runtime/testing';
import { csrfHeaders, registrationPayload } from '../test/auth-helpers';
import { ANONYMOUS_SESSION_MS } from './session';

/**
 * Anonymous traffic must not cost a Redis key: a private Redis (so other test files' keys do not count)
 * holds nothing after a thousand page views and catalog reads; a guest gets a session only from
 * GET /api/csrf, before signing in, signing up or resetting a password, and that one lives an hour.
 */
describe('anonymous sessions', () => {
  let redis: PrivateRedis;
  let t: TestContext;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await createTestContext({ REDIS_URL: redis.url(0), QUEUE_REDIS_DB: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.dispose();
  });

  it('creates no Redis key for 1,000 anonymous requests of pages and catalog reads', async () => {
    const paths = ['/', '/pricing', '/api/settings', '/api/packs'];
    for (let round = 0; round < 25; round += 1) {
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => t.agent().get(paths[i % paths.length] as string)),
      );
      for (const reply of replies) expect(reply.headers['set-cookie']).toBeUndefined();
    }
    expect(await t.ctx.redis.dbSize()).toBe(0);
  }, 60_000);

  it('starts an hour-long guest session on GET /api/csrf, which a registration then replaces', async () => {
    const agent = t.agent();
    await csrfHeaders(agent);
    const keys = await t.ctx.redis.keys('sess:*');
    expect(keys).toHaveLength(1);
    const ttl = await t.ctx.redis.ttl(keys[0] as string);
    expect(ttl).toBeGreaterThan(ANONYMOUS_SESSION_MS / 1000 - 10);
    expect(ttl).toBeLessThanOrEqual(ANONYMOUS_SESSION_MS / 1000);
    // Requests with the guest session do not extend it.
    await t.ctx.redis.expire(keys[0] as string, 100);
    await agent.get('/api/is-auth').expect(200);
    expect(await t.ctx.redis.ttl(keys[0] as string)).toBeLessThanOrEqual(100);
    // Signing up replaces it with a signed-in session of the full idle lifetime.
    await agent
      .post('/api/register')
      .set(await csrfHeaders(agent))
      .send(registrationPayload())
      .expect(201);
    const after = await t.ctx.redis.keys('sess:*');
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(keys[0]);
    expect(await t.ctx.redis.ttl(after[0] as string)).toBeGreaterThan(11 * 3600);
  });
});
