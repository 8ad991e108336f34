import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { createUser, csrfHeaders, signIn, signUp, verifiedUser, xsrfAgent, xsrfCookie } from '../../test/auth-helpers';
import { usersRepository as users } from '../users';

/** The session cookie's value in a response's Set-Cookie header, if it sets one. */
function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith('imagestudio.sid='))?.split(';')[0];
}

describe('sign-up, sign-in, sign-out and /api/is-auth', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('answers guests with authenticated false; GET /api/csrf sets a readable XSRF-TOKEN cookie', async () => {
    const agent = t.agent();
    const guest = await agent.get('/api/is-auth').expect(200);
    expect(guest.body).toEqual({ status: 'OK', authenticated: false, emailVerified: false });
    expect(guest.headers['set-cookie']).toBeUndefined();
    const res = await agent.get('/api/csrf').expect(200);
    const setCookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('XSRF-TOKEN='));
    expect(setCookie).toBeDefined();
    expect(setCookie).not.toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const session = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('imagestudio.sid='));
    expect(session).toMatch(/HttpOnly/i);
    // A second GET with the cookie already right does not set it again.
    const again = await agent.get('/api/csrf').expect(200);
    expect(((again.headers['set-cookie'] as unknown as string[]) ?? []).some((c) => c.startsWith('XSRF-TOKEN='))).toBe(
      false,
    );
  });

  it('registers, signs the new user in and grants the free tokens once', async () => {
    const agent = await xsrfAgent(t);
    const { res, email } = await signUp(agent, {
      role: 'admin',
      balance_tenths: 99999,
      email_verified_at: new Date().toISOString(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 'OK', emailVerified: false });
    const auth = await agent.get('/api/is-auth').expect(200);
    expect(auth.body).toEqual({ status: 'OK', authenticated: true, emailVerified: false });
    const row = (await users.findByEmail(t.ctx.db, email)) as users.UserRow;
    // Mass assignment is ignored: role, balance and verification come from the server only.
    expect(row.role).toBe('customer');
    expect(row.email_verified_at).toBeNull();
    expect(Number(row.balance_tenths)).toBe(100);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.phone_e164).toBe('+447911123456');
  });

  it('refuses an email already taken in any letter case', async () => {
    const { email } = await createUser(t);
    const { res } = await signUp(t.agent(), { email: email.toUpperCase() });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'ERROR',
      code: 'validation_failed',
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('logs in with username + password, replacing the session id and the XSRF token', async () => {
    const { email, password } = await createUser(t);
    const agent = await xsrfAgent(t);
    const before = await agent.get('/api/is-auth');
    const tokenBefore = xsrfCookie(agent);
    const res = await signIn(agent, email, password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK', emailVerified: false });
    const sidAfter = sessionCookie(res);
    expect(sidAfter).toBeDefined();
    expect(sidAfter).not.toBe(sessionCookie(before) ?? 'none');
    expect(xsrfCookie(agent)).toBeDefined();
    expect(xsrfCookie(agent)).not.toBe(tokenBefore);
    const auth = await agent.get('/api/is-auth').expect(200);
    expect(auth.body.authenticated).toBe(true);
  });

  it('answers wrong credentials and unknown emails with the same 422 body', async () => {
    const { email } = await createUser(t);
    const wrong = await signIn(t.agent(), email, 'Wrong1234');
    const unknown = await signIn(t.agent(), uniqueEmail('nobody'), 'Wrong1234');
    const expected = {
      status: 'ERROR',
      code: 'validation_failed',
      message: 'These credentials do not match our records.',
      errors: { email: ['These credentials do not match our records.'] },
    };
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(wrong.body).toEqual(expected);
    expect(unknown.body).toEqual(expected);
  });

  it('tells a disabled account with the right password that it is disabled and where to write, a wrong one nothing', async () => {
    const { user, email, password } = await createUser(t);
    await t.ctx.db('users').where({ id: user.id }).update({ disabled_at: new Date() });
    const right = await signIn(t.agent(), email, password);
    expect(right.status).toBe(422);
    expect(right.body.errors).toEqual({
      email: ['This account has been disabled. Please contact support at support@imagestudio.example.'],
    });
    const wrong = await signIn(t.agent(), email, 'Wrong1234');
    expect(wrong.body.errors).toEqual({ email: ['These credentials do not match our records.'] });
  });

  it('answers sign-in errors in the language of lang_id', async () => {
    const { user, email, password } = await createUser(t);
    const agent = await xsrfAgent(t);
    const headers = await csrfHeaders(agent);
    const de = await agent
      .post('/api/login')
      .set(headers)
      .send({ username: email, password: 'Wrong1234', lang_id: 'de' });
    expect(de.body.errors).toEqual({ email: ['Diese Zugangsdaten stimmen nicht mit unseren Daten überein.'] });
    await t.ctx.db('users').where({ id: user.id }).update({ disabled_at: new Date() });
    const disabled = await agent.post('/api/login').set(headers).send({ username: email, password, lang_id: 'de' });
    expect(disabled.body.message).toBe(
      'Dieses Konto wurde gesperrt. Bitte wenden Sie sich an den Support unter support@imagestudio.example.',
    );
  });

  it('logs out, refuses the old session cookie afterwards, and answers OK when already signed out', async () => {
    const { agent } = await verifiedUser(t);
    const probe = await agent.get('/api/is-auth').expect(200);
    expect(probe.body.authenticated).toBe(true);
    // Keep the signed-in session's cookies as an attacker who copied them would.
    const stolen = (agent as unknown as { jar: { getCookies(a: object): { toValueString(): string } } }).jar
      .getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false })
      .toValueString();
    const out = await agent.post('/api/logout').expect(200);
    expect(out.body).toEqual({ status: 'OK' });
    expect((await agent.get('/api/is-auth')).body.authenticated).toBe(false);
    const replay = await t.agent().get('/api/is-auth').set('Cookie', stolen).expect(200);
    expect(replay.body.authenticated).toBe(false);
    await agent.post('/api/logout').expect(200);
  });

  it('keeps a remembered login in a 30-day cookie and others in a browser-session cookie', async () => {
    const { email, password } = await createUser(t);
    const remembered = await signIn(t.agent(), email, password, true);
    expect(sessionCookie({ headers: { 'set-cookie': remembered.headers['set-cookie'] } })).toBeDefined();
    const rememberedCookie = (remembered.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('imagestudio.sid='),
    );
    const expires = Date.parse(/Expires=([^;]+)/i.exec(rememberedCookie ?? '')?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const plain = await signIn(t.agent(), email, password, false);
    const plainCookie = (plain.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('imagestudio.sid='),
    );
    expect(plainCookie).not.toMatch(/Expires=/i);
    const sid = /imagestudio\.sid=s:([^.;]+)/.exec(decodeURIComponent(plainCookie ?? ''))?.[1] ?? '';
    const ttl = await t.ctx.redis.ttl(`sess:${sid}`);
    expect(ttl).toBeGreaterThan(11 * 3600);
    expect(ttl).toBeLessThanOrEqual(12 * 3600);
  });

  it('returns a fresh token through csrfHeaders for a plain agent', async () => {
    const agent = t.agent();
    const headers = await csrfHeaders(agent);
    expect(headers['X-XSRF-TOKEN']).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cookies behind an HTTPS proxy', () => {
  it('marks the session and XSRF cookies Secure when APP_URL is https and the proxy says so', async () => {
    const t = await createTestContext({ APP_URL: 'https://studio.example.test', TRUST_PROXY: 'true' });
    try {
      const res = await t.agent().get('/api/csrf').set('X-Forwarded-Proto', 'https').expect(200);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      expect(cookies.find((c) => c.startsWith('imagestudio.sid='))).toMatch(/; Secure/i);
      expect(cookies.find((c) => c.startsWith('XSRF-TOKEN='))).toMatch(/; Secure/i);
    } finally {
      await t.close();
    }
  });
});
