import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import {
  cookieHeader,
  createUser,
  mailsTo,
  signIn,
  verifiedUser,
  waitForMail,
  xsrfAgent,
} from '../../test/auth-helpers';

const SENT = { status: 'OK', message: 'Password reset link sent. Please check your email.' };
const INVALID = 'This password reset link is invalid or has expired.';

/** The token and email of the latest reset link mailed to `email`. */
async function resetLink(t: TestContext, email: string, nth = 1) {
  const mail = await waitForMail(t, email, 'Reset your password', nth);
  const url = new URL(mail.links.reset as string);
  expect(`${url.origin}${url.pathname}`).toBe(`${t.config.APP_URL}/reset-password`);
  return { token: url.searchParams.get('token') as string, email: url.searchParams.get('email') as string, mail };
}

describe('password reset', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('refuses the GET request without the session XSRF header (any site could link to it) and mails nothing', async () => {
    const { email } = await createUser(t);
    const guest = await xsrfAgent(t);
    const res = await t
      .agent()
      .get('/api/user/request-password-restore')
      .query({ email })
      .set('Cookie', cookieHeader(guest));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
    await guest.get('/api/user/request-password-restore').query({ email }).expect(200);
    await resetLink(t, email);
    expect(mailsTo(t, email).filter((m) => m.subject === 'Reset your password')).toHaveLength(1);
  });

  it('mails the link in the language the customer last signed in with', async () => {
    const { email, password } = await createUser(t);
    const german = await xsrfAgent(t);
    await german.post('/api/login').send({ username: email, password, lang_id: 'de' }).expect(200);
    const guest = await xsrfAgent(t);
    await guest.get('/api/user/request-password-restore').query({ email }).expect(200);
    const mail = await waitForMail(t, email, 'Passwort zurücksetzen');
    expect(mail.text).toContain('innerhalb von 60 Minuten');
    expect(mail.links.reset).toContain('/reset-password?token=');
  });

  it('answers known and unknown emails identically and mails only the known one', async () => {
    const { email } = await createUser(t);
    const unknown = uniqueEmail('ghost');
    const known = await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
    const other = await (
      await xsrfAgent(t)
    )
      .get('/api/user/request-password-restore')
      .query({ email: unknown })
      .expect(200);
    expect(known.body).toEqual(SENT);
    expect(other.body).toEqual(SENT);
    const { token, mail } = await resetLink(t, email);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    expect(mail.text).toContain(mail.links.reset);
    await new Promise((r) => setTimeout(r, 100));
    expect(mailsTo(t, unknown)).toHaveLength(0);
    // Only a hash is stored.
    const row = await t.ctx
      .db('password_resets')
      .where({ user_id: (await t.ctx.db('users').whereRaw('lower(email)=lower(?)', [email]).first()).id })
      .first();
    expect(row.token_hash).not.toContain(token);
  });

  it('accepts the POST form and validates the email', async () => {
    const agent = await xsrfAgent(t);
    const empty = await agent.post('/api/user/request-password-restore').send({}).expect(422);
    expect(empty.body.errors).toEqual({ email: ['Please enter your email address'] });
    const bad = await agent.post('/api/user/request-password-restore').send({ email: 'not-an-email' }).expect(422);
    expect(bad.body.errors).toEqual({ email: ['Please enter a valid email address'] });
    const { email } = await createUser(t);
    expect((await agent.post('/api/user/request-password-restore').send({ email }).expect(200)).body).toEqual(SENT);
    await resetLink(t, email);
  });

  it('resets once with the token, ends every session, and refuses reuse', async () => {
    const { agent, email, password } = await verifiedUser(t);
    await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
    const link = await resetLink(t, email);
    const guest = await xsrfAgent(t);
    const body = { token: link.token, email: link.email, password: 'Newpass12', password_confirmation: 'Newpass12' };
    const ok = await guest.put('/api/user/restore-password').send(body).expect(200);
    expect(ok.body).toEqual({ status: 'OK', message: 'Password reset successfully' });
    // The session signed in before the reset has ended.
    expect((await agent.get('/api/user/profile')).status).toBe(401);
    expect((await signIn(t.agent(), email, password)).status).toBe(422);
    expect((await signIn(t.agent(), email, 'Newpass12')).status).toBe(200);
    const again = await guest
      .put('/api/user/restore-password')
      .send({ ...body, password: 'Other123', password_confirmation: 'Other123' })
      .expect(422);
    expect(again.body).toMatchObject({ code: 'validation_failed', message: INVALID, errors: { token: [INVALID] } });
  });

  it('refuses a wrong email, a wrong token, an expired token and a voided older token', async () => {
    const { email } = await createUser(t);
    const other = await createUser(t);
    const guest = await xsrfAgent(t);
    await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
    const first = await resetLink(t, email, 1);
    const attempt = (token: string, forEmail: string) =>
      guest
        .put('/api/user/restore-password')
        .send({ token, email: forEmail, password: 'Newpass12', password_confirmation: 'Newpass12' });

    expect((await attempt(first.token, other.email)).status).toBe(422);
    expect((await attempt(first.token, uniqueEmail('ghost'))).body.message).toBe(INVALID);
    expect((await attempt(`${first.token.slice(0, -2)}xx`, email)).body.message).toBe(INVALID);

    await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
    const second = await resetLink(t, email, 2);
    expect(second.token).not.toBe(first.token);
    expect((await attempt(first.token, email)).body.message).toBe(INVALID);

    await t.ctx
      .db('password_resets')
      .where({ user_id: (await t.ctx.db('users').whereRaw('lower(email)=lower(?)', [email]).first()).id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await attempt(second.token, email)).body.message).toBe(INVALID);
  });

  it('applies the password rule and the confirmation to the new password', async () => {
    const guest = await xsrfAgent(t);
    const res = await guest
      .put('/api/user/restore-password')
      .send({ token: 'x', email: uniqueEmail(), password: 'short', password_confirmation: 'short' })
      .expect(422);
    expect(res.body.errors.password).toEqual(['Password must be 6-12 characters long']);
    const mismatch = await guest
      .put('/api/user/restore-password')
      .send({ token: 'x', email: uniqueEmail(), password: 'Newpass12', password_confirmation: 'Newpass13' })
      .expect(422);
    expect(mismatch.body.errors).toEqual({
      password: ['Passwords do not match'],
      password_confirmation: ['Passwords do not match'],
    });
  });

  it('limits reset emails to 5 per hour per address, known or not', async () => {
    const { email } = await createUser(t);
    for (let i = 0; i < 5; i += 1)
      await (
        await xsrfAgent(t)
      )
        .get('/api/user/request-password-restore')
        .query({ email: email.toUpperCase() })
        .expect(200);
    const limited = await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(429);
    expect(limited.body).toMatchObject({ status: 'ERROR', code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 5; i += 1)
      await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email: ghost }).expect(200);
    await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email: ghost }).expect(429);
  });
});
