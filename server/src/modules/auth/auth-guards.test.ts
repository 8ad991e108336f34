import express from 'express';
import supertest from 'supertest';
import { createTestContext, type TestContext } from '../../test/harness';
import {
  cookieHeader,
  createUser,
  csrfHeaders,
  isolatedTestDatabase,
  signIn,
  verifiedUser,
} from '../../test/auth-helpers';
import type { AppContext } from '../../context';
import { updateSetting } from '../catalog';
import { currentUser, requireUser } from '../../http/current-user';
import { requireVerifiedEmail } from './auth-guards';
import { csrfMiddleware } from '../../http/csrf';
import { errorHandler } from '../../http/error-handler';
import { sessionMiddleware } from '../../http/session';

/** The real session and CSRF stack around probe routes that use the guards as other modules do. */
function probeApp(ctx: AppContext): express.Express {
  const app = express();
  app.use(express.json());
  for (const h of sessionMiddleware(ctx)) app.use(h);
  app.use(ctx.services.passport.initialize(), ctx.services.passport.session());
  for (const h of csrfMiddleware(ctx)) app.use(h);
  app.get('/probe/user', requireUser, (req, res) => {
    res.json({ id: currentUser(req).id, hasHash: 'password_hash' in currentUser(req) });
  });
  app.post('/probe/spend', requireVerifiedEmail(ctx), (req, res) => {
    res.json({ id: currentUser(req).id });
  });
  app.use(errorHandler);
  return app;
}

/** Signs in through the real app's POST /api/login; returns the session cookies and the XSRF token. */
async function realLogin(t: TestContext, email: string, password: string) {
  const agent = t.agent();
  expect((await signIn(agent, email, password)).status).toBe(200);
  return { cookie: cookieHeader(agent), token: (await csrfHeaders(agent))['X-XSRF-TOKEN'] as string };
}

describe('requireUser, requireVerifiedEmail and currentUser', () => {
  let t: TestContext;
  let app: express.Express;
  beforeAll(async () => {
    t = await createTestContext();
    app = probeApp(t.ctx);
  });
  afterAll(() => t.close());

  it('answers guests with the 401 envelope', async () => {
    const res = await supertest(app).get('/probe/user').expect(401);
    expect(res.body).toEqual({ status: 'ERROR', code: 'unauthenticated', message: 'Unauthenticated.' });
  });

  it('gives routes the signed-in user without its password hash', async () => {
    const { email, password, user } = await createUser(t);
    const { cookie } = await realLogin(t, email, password);
    const res = await supertest(app).get('/probe/user').set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({ id: user.id, hasHash: false });
  });

  it('refuses an unverified email with 403 email_not_verified and lets a verified one through', async () => {
    const { email, password } = await createUser(t);
    const unverified = await realLogin(t, email, password);
    const denied = await supertest(app)
      .post('/probe/spend')
      .set('Cookie', unverified.cookie)
      .set('X-XSRF-TOKEN', unverified.token)
      .expect(403);
    expect(denied.body).toEqual({
      status: 'ERROR',
      code: 'email_not_verified',
      message: 'Your email address is not verified.',
    });

    const ok = await verifiedUser(t);
    const token = (await csrfHeaders(ok.agent))['X-XSRF-TOKEN'] as string;
    const allowed = await supertest(app)
      .post('/probe/spend')
      .set('Cookie', cookieHeader(ok.agent))
      .set('X-XSRF-TOKEN', token)
      .expect(200);
    expect(allowed.body).toEqual({ id: ok.user.id });
  });

  it('lets an unverified email through when require_email_verification is off', async () => {
    // Site-wide setting: flipped in a database of its own so parallel tests never see it.
    const isolated = await createTestContext({ DATABASE_URL: await isolatedTestDatabase('settings') });
    try {
      const probe = probeApp(isolated.ctx);
      const { email, password } = await createUser(isolated);
      const { cookie, token } = await realLogin(isolated, email, password);
      await updateSetting(isolated.ctx, 'require_email_verification', true);
      await supertest(probe).post('/probe/spend').set('Cookie', cookie).set('X-XSRF-TOKEN', token).expect(403);
      await updateSetting(isolated.ctx, 'require_email_verification', false);
      await supertest(probe).post('/probe/spend').set('Cookie', cookie).set('X-XSRF-TOKEN', token).expect(200);
      await updateSetting(isolated.ctx, 'require_email_verification', true);
    } finally {
      await isolated.close();
    }
  });
});
