import { createUser, signIn } from '../test/auth-helpers';
import { createTestContext, type TestContext } from '../test/harness';

/** The session id behind a signed-in agent's cookie. */
function sessionId(setCookies: string[]): string {
  const cookie = setCookies.find((c) => c.startsWith('imagestudio.sid=')) ?? '';
  return /imagestudio\.sid=s:([^.;]+)/.exec(decodeURIComponent(cookie))?.[1] ?? '';
}

describe('session expiry refresh', () => {
  const contexts: TestContext[] = [];
  afterAll(() => Promise.all(contexts.map((t) => t.close())));

  async function signedInSession(interval: string) {
    const t = await createTestContext({ SESSION_REFRESH_INTERVAL_S: interval });
    contexts.push(t);
    const { email, password } = await createUser(t);
    const agent = t.agent();
    const res = await signIn(agent, email, password);
    return { t, agent, key: `sess:${sessionId(res.headers['set-cookie'] as unknown as string[])}` };
  }

  it('pushes the idle expiry forward on a request once the interval has passed', async () => {
    const { t, agent, key } = await signedInSession('0');
    await t.ctx.redis.expire(key, 100);
    const res = await agent.get('/api/is-auth').expect(200);
    expect(res.body.authenticated).toBe(true);
    expect(await t.ctx.redis.ttl(key)).toBeGreaterThan(11 * 3600);
  });

  it('does not write to Redis again within the interval', async () => {
    const { t, agent, key } = await signedInSession('3600');
    // The first request after sign-in records the refresh time; the one after it is within the interval.
    await agent.get('/api/is-auth').expect(200);
    await t.ctx.redis.expire(key, 100);
    const res = await agent.get('/api/is-auth').expect(200);
    expect(res.body.authenticated).toBe(true);
    expect(await t.ctx.redis.ttl(key)).toBeLessThanOrEqual(100);
  });
});
