import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { cookieHeader, mailsTo, signIn, verifiedUser, waitForMail, xsrfAgent } from '../../test/auth-helpers';
import * as users from '../users/users.repository';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** The confirmation link mailed to `email` (the nth one). */
async function confirmLink(email: string, nth = 1): Promise<string> {
  const mail = await waitForMail(t, email, 'Confirm your new email address', nth);
  const link = mail.links.confirm as string;
  expect(link.startsWith(`${t.config.APP_URL}/api/user/change-email/confirm?token=`)).toBe(true);
  return link.slice(t.config.APP_URL.length);
}

describe('changing the email address', () => {
  it('mails a link to the new address; opening it changes the address, tells the old one, and sign-in moves with it', async () => {
    const { agent, user, email, password } = await verifiedUser(t);
    const next = uniqueEmail('moved');
    const res = await agent
      .post('/api/user/change-email')
      .send({ email: next, current_password: password })
      .expect(200);
    expect(res.body.message).toBe(
      'We sent a confirmation link to your new address. The change takes effect once you open it.',
    );
    // Nothing changes before the link is opened.
    expect((await users.findById(t.ctx.db, user.id))!.email).toBe(email);
    const link = await confirmLink(next);
    // The link works in any browser, signed in or not.
    const confirmed = await t.agent().get(link).expect(302);
    expect(confirmed.headers.location).toBe('/account/profile?email_change=changed');
    const row = (await users.findById(t.ctx.db, user.id))!;
    expect(row.email).toBe(next);
    expect(row.email_verified_at).not.toBeNull();
    const notice = await waitForMail(t, email, 'Your email address was changed');
    expect(notice.text).toContain(next);
    // The session goes on; the profile shows the new address.
    expect((await agent.get('/api/user/profile').expect(200)).body.payload.email).toBe(next);
    // Single use.
    expect((await t.agent().get(link).expect(302)).headers.location).toBe('/account/profile?email_change=invalid');
    // Sign-in now takes the new address, not the old one.
    const fresh = await xsrfAgent(t);
    expect((await signIn(fresh, email, password)).status).toBe(422);
    expect((await signIn(fresh, next, password)).status).toBe(200);
  });

  it('asks for the right current password, a new and free address; nothing is mailed then', async () => {
    const { agent, email, password } = await verifiedUser(t);
    const other = await verifiedUser(t);
    const next = uniqueEmail('wrong');
    const wrong = await agent
      .post('/api/user/change-email')
      .send({ email: next, current_password: 'nope' })
      .expect(422);
    expect(wrong.body.errors.current_password).toEqual(['The current password is incorrect.']);
    const same = await agent
      .post('/api/user/change-email')
      .send({ email: email.toUpperCase(), current_password: password })
      .expect(422);
    expect(same.body.errors.email).toEqual(['This is already your email address.']);
    const taken = await agent
      .post('/api/user/change-email')
      .send({ email: other.email, current_password: password })
      .expect(422);
    expect(taken.body.errors.email).toEqual(['The email has already been taken.']);
    const bad = await agent.post('/api/user/change-email').send({ email: 'not-an-email' }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['current_password', 'email']);
    expect(mailsTo(t, next)).toEqual([]);
    // German readers get the German message.
    const german = await agent
      .post('/api/user/change-email')
      .send({ email: email, current_password: password, lang_id: 'de' })
      .expect(422);
    expect(german.body.errors.email).toEqual(['Das ist bereits Ihre E-Mail-Adresse.']);
  });

  it('needs a session and the CSRF header; a newer request voids the older link; a taken address fails at confirm', async () => {
    const guest = await xsrfAgent(t);
    await guest
      .post('/api/user/change-email')
      .send({ email: uniqueEmail('g'), current_password: 'x' })
      .expect(401);
    const { agent, password } = await verifiedUser(t);
    const csrf = await t
      .agent()
      .post('/api/user/change-email')
      .set('Cookie', cookieHeader(agent))
      .send({ email: uniqueEmail('c'), current_password: password });
    expect(csrf.status).toBe(403);

    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await agent.post('/api/user/change-email').send({ email: first, current_password: password }).expect(200);
    const firstLink = await confirmLink(first);
    await agent.post('/api/user/change-email').send({ email: second, current_password: password }).expect(200);
    const secondLink = await confirmLink(second);
    expect((await t.agent().get(firstLink).expect(302)).headers.location).toBe('/account/profile?email_change=invalid');
    // Someone signs up with the address before the link is opened.
    await verifiedUser(t, { email: second });
    expect((await t.agent().get(secondLink).expect(302)).headers.location).toBe('/account/profile?email_change=taken');
    expect((await t.agent().get('/api/user/change-email/confirm?token=short').expect(302)).headers.location).toBe(
      '/account/profile?email_change=invalid',
    );
  });

  it('limits change requests per user', async () => {
    const { agent, password } = await verifiedUser(t);
    for (let i = 0; i < 6; i += 1) {
      await agent
        .post('/api/user/change-email')
        .send({ email: uniqueEmail(`r${i}`), current_password: password })
        .expect(200);
    }
    await agent
      .post('/api/user/change-email')
      .send({ email: uniqueEmail('r7'), current_password: password })
      .expect(429);
  });
});
