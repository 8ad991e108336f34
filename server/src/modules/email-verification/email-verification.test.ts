import { createTestContext, type TestContext } from '../../test/harness';
import { signUp, waitForMail, xsrfAgent } from '../../test/auth-helpers';
import { verificationUrl } from './verification-links';

/** The path + query of a link, for requesting it from the app under test. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('email verification', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('mails a signed link on registration that verifies the email once, then says already verified', async () => {
    const agent = await xsrfAgent(t);
    const { email } = await signUp(agent);
    const mail = await waitForMail(t, email, 'Verify your email address');
    const link = mail.links.verify as string;
    expect(link).toMatch(
      new RegExp(
        `^${t.config.APP_URL}/api/email/verify/[0-9a-f-]{36}/[0-9a-f]{64}\\?expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    );
    // A link works in any browser: it is the signature, not the session, that proves it.
    const first = await t.agent().get(pathOf(link)).expect(302);
    expect(first.headers.location).toBe('/email/verify/success');
    expect((await agent.get('/api/is-auth')).body).toEqual({ status: 'OK', authenticated: true, emailVerified: true });
    expect((await agent.get('/api/user/profile')).body.payload.email_verified).toBe(true);
    const second = await t.agent().get(pathOf(link)).expect(302);
    expect(second.headers.location).toBe('/email/verify/already-success');
  });

  it('writes the verification mail, and a resent one, in the language the customer signed up in', async () => {
    const agent = await xsrfAgent(t);
    const { email } = await signUp(agent, { lang_id: 'de', name: 'Jörg' });
    const mail = await waitForMail(t, email, 'Bestätigen Sie Ihre E-Mail-Adresse');
    expect(mail.text).toContain('Hallo Jörg,');
    expect(mail.text).toContain('Wenn Sie kein Konto angelegt haben');
    expect(mail.html).toContain('E-Mail-Adresse bestätigen');
    await agent.post('/api/email/verification-notification').send({}).expect(200);
    expect((await waitForMail(t, email, 'Bestätigen Sie Ihre E-Mail-Adresse', 2)).links.verify).toBeTruthy();
    const english = await xsrfAgent(t);
    const other = await signUp(english);
    expect((await waitForMail(t, other.email, 'Verify your email address')).text).toContain('Hello ');
  });

  it('refuses a tampered, expired or foreign link', async () => {
    const agent = await xsrfAgent(t);
    const { email } = await signUp(agent);
    const link = (await waitForMail(t, email, 'Verify your email address')).links.verify as string;
    const id = /verify\/([^/]+)\//.exec(link)?.[1] as string;
    const tampered = link.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
    const expired = verificationUrl(t.config, id, email, Date.now() - 24 * 3600 * 1000 - 1000); // 24 h and 1 s old
    const foreign = verificationUrl(t.config, id, 'someone-else@example.test');
    const longer = link.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`);
    for (const bad of [
      tampered,
      expired,
      foreign,
      longer,
      `${t.config.APP_URL}/api/email/verify/not-a-uuid/abc?expires=1&signature=2`,
    ]) {
      const res = await t.agent().get(pathOf(bad)).expect(302);
      expect(res.headers.location).toBe('/email-verification?invalid=1');
    }
    expect((await agent.get('/api/is-auth')).body.emailVerified).toBe(false);
    // a link sent 23 hours ago still works: links live 24 hours
    const yesterday = verificationUrl(t.config, id, email, Date.now() - 23 * 3600 * 1000);
    expect((await t.agent().get(pathOf(yesterday)).expect(302)).headers.location).toBe('/email/verify/success');
  });

  it('re-sends the link on request (signed in), up to the hourly limit', async () => {
    const agent = await xsrfAgent(t);
    expect((await agent.post('/api/email/verification-notification').expect(401)).body.code).toBe('unauthenticated');
    const { email } = await signUp(agent);
    await waitForMail(t, email, 'Verify your email address', 1);
    for (let i = 0; i < 6; i += 1) {
      const res = await agent.post('/api/email/verification-notification').expect(200);
      expect(res.body).toEqual({
        status: 'OK',
        message: 'A new verification link has been sent to your email address.',
      });
    }
    await waitForMail(t, email, 'Verify your email address', 7);
    const limited = await agent.post('/api/email/verification-notification').expect(429);
    expect(limited.body.code).toBe('rate_limited');
    // the cool-down in whole minutes, in the request's language
    expect(limited.body.message).toMatch(/^You can ask for another link in ([1-9]|[1-5]\d|60) minutes\.$/);
    expect(
      (await agent.post('/api/email/verification-notification').send({ lang_id: 'de' }).expect(429)).body.message,
    ).toMatch(/^Sie können in \d+ Minuten einen neuen Link anfordern\.$/);
  });

  it('tells a verified user there is nothing to send', async () => {
    const agent = await xsrfAgent(t);
    const { email } = await signUp(agent);
    await t
      .agent()
      .get(pathOf((await waitForMail(t, email, 'Verify your email address')).links.verify as string))
      .expect(302);
    const res = await agent.post('/api/email/verification-notification').expect(200);
    expect(res.body).toEqual({ status: 'OK', message: 'Your email address is already verified.' });
  });
});
