import supertest from 'supertest';
import { createTestContext, type TestContext } from '../test/harness';
import {
  cookieHeader,
  createUser,
  csrfHeaders,
  registrationPayload,
  signIn,
  verifiedUser,
  waitForMail,
  xsrfAgent,
  xsrfCookie,
} from '../test/auth-helpers';

type Method = 'post' | 'put';

/** One mutating route: how to get a client allowed to call it, and a body that succeeds. */
interface RouteCase {
  method: Method;
  path: string;
  prepare(t: TestContext): Promise<{ agent: supertest.Agent; body: () => Record<string, unknown> }>;
}

const signedIn = async (t: TestContext) => (await verifiedUser(t)).agent;

const ROUTES: RouteCase[] = [
  {
    method: 'post',
    path: '/api/register',
    prepare: async (t) => ({ agent: t.agent(), body: () => registrationPayload() }),
  },
  {
    method: 'post',
    path: '/api/login',
    prepare: async (t) => {
      const { email, password } = await createUser(t);
      return { agent: t.agent(), body: () => ({ username: email, password }) };
    },
  },
  { method: 'post', path: '/api/logout', prepare: async (t) => ({ agent: await signedIn(t), body: () => ({}) }) },
  {
    method: 'put',
    path: '/api/user/profile',
    prepare: async (t) => ({
      agent: await signedIn(t),
      body: () => ({ name: 'New', surname: 'Name', phone: '+33612345678' }),
    }),
  },
  {
    method: 'post',
    path: '/api/user/change-password',
    prepare: async (t) => {
      const { agent, password } = await verifiedUser(t);
      return {
        agent,
        body: () => ({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' }),
      };
    },
  },
  {
    method: 'post',
    path: '/api/user/request-password-restore',
    prepare: async (t) => {
      const { email } = await createUser(t);
      return { agent: t.agent(), body: () => ({ email }) };
    },
  },
  {
    method: 'put',
    path: '/api/user/restore-password',
    prepare: async (t) => {
      const { email } = await createUser(t);
      await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
      const token = new URL(
        (await waitForMail(t, email, 'Reset your password')).links.reset as string,
      ).searchParams.get('token');
      return {
        agent: t.agent(),
        body: () => ({ token, email, password: 'Newpass12', password_confirmation: 'Newpass12' }),
      };
    },
  },
  {
    method: 'post',
    path: '/api/email/verification-notification',
    prepare: async (t) => {
      const { email, password } = await createUser(t);
      const agent = t.agent();
      await signIn(agent, email, password);
      return { agent, body: () => ({}) };
    },
  },
];

describe('session-bound XSRF protection on every mutating route', () => {
  let t: TestContext;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestContext();
    otherToken = (await csrfHeaders(t.agent()))['X-XSRF-TOKEN'] as string;
  });
  afterAll(() => t.close());

  describe.each(ROUTES)('$method $path', (route) => {
    // Plain requests carrying the client's cookies, so nothing adds a header behind the test's back.
    const send = (cookie: string, headers: Record<string, string>, body: Record<string, unknown>) =>
      supertest(t.app)[route.method](route.path).set('Cookie', cookie).set(headers).send(body);
    const expectCsrf403 = (res: supertest.Response) => {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'ERROR', code: 'csrf_invalid', message: 'CSRF token mismatch.' });
    };

    it("refuses a missing header, a wrong token, another session's token and a cross-site Origin; accepts the valid token", async () => {
      const { agent, body } = await route.prepare(t);
      const own = await csrfHeaders(agent);
      const cookie = cookieHeader(agent);
      expectCsrf403(await send(cookie, {}, body()));
      expectCsrf403(await send(cookie, { 'X-XSRF-TOKEN': 'f'.repeat(64) }, body()));
      expectCsrf403(await send(cookie, { 'X-XSRF-TOKEN': otherToken }, body()));
      expectCsrf403(await send(cookie, { ...own, Origin: 'https://evil.example' }, body()));
      // The cookie alone proves nothing: echoing it as the header only works because it equals the session's token.
      expect(xsrfCookie(agent)).toBe(own['X-XSRF-TOKEN']);
      const ok = await send(cookie, { ...own, Origin: t.config.APP_URL }, body());
      expect(ok.status).toBeGreaterThanOrEqual(200);
      expect(ok.status).toBeLessThan(300);
    });
  });

  it('lets GETs through without a token; GET /api/csrf issues one', async () => {
    const agent = t.agent();
    await agent.get('/api/is-auth').expect(200);
    expect(xsrfCookie(agent)).toBeUndefined();
    await agent.get('/api/csrf').expect(200);
    expect(xsrfCookie(agent)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not protect the Stripe webhook with the session token', async () => {
    const res = await t.agent().post('/api/webhooks/stripe').set('Content-Type', 'application/json').send('{}');
    expect(res.body.code).not.toBe('csrf_invalid');
  });
});
