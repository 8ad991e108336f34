import supertest from 'supertest';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import {
  cookieHeader,
  csrfHeaders,
  isolatedTestDatabase,
  registrationPayload,
  signUp,
  xsrfAgent,
} from '../../test/auth-helpers';
import { updateSetting } from '../catalog';
import { ledgerSum } from '../ledger';
import { usersRepository as users } from '../users';

describe('registration validation and limits', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  it('answers an empty form with every field message, keyed like the payload', async () => {
    const agent = await xsrfAgent(t);
    const res = await agent.post('/api/register').send({}).expect(422);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'validation_failed',
      message: 'Name is required',
      errors: {
        name: ['Name is required'],
        surname: ['Surname is required'],
        email: ['Email is required'],
        phone: ['Phone number is required'],
        password: ['Password is required'],
        password_confirmation: ['Please confirm your password'],
      },
    });
  });

  it('checks the email format, the phone, the password rule and the confirmation', async () => {
    const agent = await xsrfAgent(t);
    const email = await agent
      .post('/api/register')
      .send(registrationPayload({ email: 'nope@' }))
      .expect(422);
    expect(email.body.errors).toEqual({ email: ['Please enter a valid email address'] });
    const phone = await agent
      .post('/api/register')
      .send(registrationPayload({ phone: '12345', phoneE164: '+1234' }))
      .expect(422);
    expect(phone.body.errors).toEqual({ phone: ['Please enter a valid phone number'] });
    const rules: Array<[string, string]> = [
      ['Ab1', 'Password must be 6-12 characters long'],
      ['abcdef1', 'Password must contain at least one uppercase letter'],
      ['ABCDEF1', 'Password must contain at least one lowercase letter'],
      ['Abcdefg', 'Password must contain at least one number'],
      ['Abc def1', 'Password must not contain spaces'],
    ];
    for (const [password, message] of rules) {
      const res = await agent
        .post('/api/register')
        .send(registrationPayload({ password, password_confirmation: password }))
        .expect(422);
      expect(res.body.errors).toEqual({ password: [message] });
    }
    const mismatch = await agent
      .post('/api/register')
      .send(registrationPayload({ password_confirmation: 'Secret124' }))
      .expect(422);
    expect(mismatch.body.errors).toEqual({
      password: ['Passwords do not match'],
      password_confirmation: ['Passwords do not match'],
    });
  });

  it('allows 10 registrations per hour from one IP, then answers 429', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < 10; i += 1) {
      const agent = t.agent();
      const headers = await csrfHeaders(agent);
      await agent.post('/api/register').set(headers).set('X-Forwarded-For', ip).send(registrationPayload()).expect(201);
    }
    const agent = t.agent();
    const headers = await csrfHeaders(agent);
    const res = await agent
      .post('/api/register')
      .set(headers)
      .set('X-Forwarded-For', ip)
      .send(registrationPayload())
      .expect(429);
    expect(res.body).toMatchObject({
      status: 'ERROR',
      code: 'rate_limited',
      message: 'Too many requests. Please wait a moment.',
    });
    await agent
      .post('/api/register')
      .set(headers)
      .set('X-Forwarded-For', '198.51.100.7')
      .send(registrationPayload())
      .expect(201);
  });
});

describe('registration settings (a database of its own: these are site-wide)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ DATABASE_URL: await isolatedTestDatabase('settings'), TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await updateSetting(t.ctx, 'is_reg_enabled', 1);
    await updateSetting(t.ctx, 'welcome_bonus_tokens', 0);
    await t.close();
  });

  it('answers 403 while registration is switched off', async () => {
    await updateSetting(t.ctx, 'is_reg_enabled', 0);
    const off = await signUp(await xsrfAgent(t));
    expect(off.res.status).toBe(403);
    expect(off.res.body).toEqual({
      status: 'ERROR',
      code: 'registration_disabled',
      message: 'Registration is currently disabled.',
    });
    expect(await users.findByEmail(t.ctx.db, off.email)).toBeNull();
    await updateSetting(t.ctx, 'is_reg_enabled', 1);
    expect((await signUp(await xsrfAgent(t))).res.status).toBe(201);
  });

  it('creates one account and one of each grant for 50 concurrent registrations of one email', async () => {
    await updateSetting(t.ctx, 'welcome_bonus_tokens', 2.5);
    const email = uniqueEmail('race');
    // 50 browsers from 50 addresses, each with its own session and token.
    const clients = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const agent = t.agent();
        const headers = await csrfHeaders(agent);
        return { cookie: cookieHeader(agent), headers: { ...headers, 'X-Forwarded-For': `192.0.2.${i + 1}` } };
      }),
    );
    const results = await Promise.all(
      clients.map((c, i) =>
        supertest(t.app)
          .post('/api/register')
          .set('Cookie', c.cookie)
          .set(c.headers)
          .send(registrationPayload({ email: i % 2 ? email : email.toUpperCase() })),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 422))
      expect(r.body.errors).toEqual({ email: ['The email has already been taken.'] });

    const rows = await t.ctx.db('users').whereRaw('lower(email) = lower(?)', [email]);
    expect(rows).toHaveLength(1);
    const ledger = await t.ctx.db('token_ledger').where({ user_id: rows[0].id }).orderBy('id');
    expect(
      ledger.map((e: { idempotency_key: string; delta_tenths: string }) => [e.idempotency_key, Number(e.delta_tenths)]),
    ).toEqual([
      [`signup:${rows[0].id}`, 100],
      [`welcome:${rows[0].id}`, 25],
    ]);
    expect(Number(rows[0].balance_tenths)).toBe(125);
    expect(await ledgerSum(t.ctx.db, rows[0].id)).toBe(125);
  });
});
