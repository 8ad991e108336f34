import { createTestContext, type TestContext } from '../../test/harness';
import { createUser, verifiedUser, waitForMail, xsrfAgent } from '../../test/auth-helpers';

/** Every password change mails the customer: when, from where, a way to reset it, and in their language. */
describe('the password-changed notice', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('goes out on a change of password, with the time, the address and browser, and the reset link', async () => {
    const { agent, user, password } = await verifiedUser(t);
    const before = Date.now();
    await agent
      .post('/api/user/change-password')
      .set('User-Agent', 'Firefox/131.0 (test)')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    const mail = await waitForMail(t, user.email, 'Your password was changed');
    const year = String(new Date(before).getUTCFullYear());
    expect(mail.text).toMatch(new RegExp(`was changed on .*${year}.*UTC`));
    expect(mail.text).toMatch(/from the address (::ffff:)?127\.0\.0\.1 with the browser Firefox\/131\.0 \(test\)/);
    expect(mail.links.reset).toBe(`${t.config.APP_URL}/forgot-password`);
    expect(mail.text).toContain(`${t.config.APP_URL}/forgot-password`);
    expect(mail.html).toContain('href="http');
  });

  it('goes out after a reset by link too, in the language the customer signed in with', async () => {
    const { email, password } = await createUser(t);
    const german = await xsrfAgent(t);
    await german.post('/api/login').send({ username: email, password, lang_id: 'de' }).expect(200);
    await german
      .post('/api/user/change-password')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    const mail = await waitForMail(t, email, 'Ihr Passwort wurde geändert');
    expect(mail.text).toContain('Das Passwort Ihres Image-Studio-Kontos wurde am');
    expect(mail.text).toContain('Passwort sofort über diesen Link zurück');

    await (await xsrfAgent(t)).get('/api/user/request-password-restore').query({ email }).expect(200);
    const link = new URL((await waitForMail(t, email, 'Passwort zurücksetzen')).links.reset as string);
    await (
      await xsrfAgent(t)
    )
      .put('/api/user/restore-password')
      .send({
        token: link.searchParams.get('token'),
        email,
        password: 'Newpass12',
        password_confirmation: 'Newpass12',
      })
      .expect(200);
    await waitForMail(t, email, 'Ihr Passwort wurde geändert', 2);
  });
});
