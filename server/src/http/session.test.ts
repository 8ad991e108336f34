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

  async function signedInSession(interval: string, remember = false) {
    const t = await createTestContext({ SESSION_REFRESH_INTERVAL_S: interval });
    contexts.push(t);
    const { email, password } = await createUser(t);
    const agent = t.agent();
    const res = await signIn(agent, email, password, remember);
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

  it('re-sends a remembered cookie, with its expiry moved forward, only when the session is refreshed', async () => {
    const { agent } = await signedInSession('3600', true);
    // Within the interval nothing is saved, so no reply carries the cookie: a request still in flight from
    // another tab while this one signs out or in cannot put the old session's cookie back.
    await agent.get('/api/is-auth').expect(200); // records the refresh time
    const quiet = await agent.get('/api/is-auth').expect(200);
    expect(quiet.body.authenticated).toBe(true);
    expect(quiet.headers['set-cookie']).toBeUndefined();

    const remembered = (await signedInSession('0', true)).agent;
    const res = await remembered.get('/api/is-auth').expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('imagestudio.sid='));
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie ?? '')?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  });

  it('leaves the pages and files of the client alone: no session read, no cookie sent', async () => {
    // A remembered session refreshed on every request (interval 0): each reply that loads it re-sends the cookie.
    const { agent } = await signedInSession('0', true);
    const api = await agent.get('/api/is-auth').expect(200);
    expect(sessionId(api.headers['set-cookie'] as unknown as string[])).not.toBe('');
    for (const path of ['/', '/pricing', '/favicon.svg', '/assets/missing.js']) {
      const res = await agent.get(path);
      expect([path, res.headers['set-cookie']]).toEqual([path, undefined]);
    }
  });
});
