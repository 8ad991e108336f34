import type supertest from 'supertest';
import { API_KEY_MESSAGES, MAX_API_KEYS_PER_USER, type JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { createUser, csrfHeaders, verifiedUser, waitForMail, xsrfAgent } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { hashKey } from './api-keys.service';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { concurrency: 2 });
});
afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const UNAUTHENTICATED = { status: 'ERROR', code: 'unauthenticated', message: 'Invalid, expired or revoked API key.' };
const FORBIDDEN = {
  status: 'ERROR',
  code: 'forbidden',
  message: 'API keys cannot be used for this request. Sign in to the website instead.',
};

async function newKey(agent: supertest.Agent, name = 'CI'): Promise<{ id: string; key: string }> {
  const res = await agent.post('/api/user/api-keys').send({ name }).expect(201);
  return res.body.payload as { id: string; key: string };
}

/** A client with no cookie jar at all: what a script calling the API is. */
const bare = () => t.agent();

describe('managing API keys (session + XSRF)', () => {
  it('creates a key shown once, stores only its hash, lists and revokes it', async () => {
    const { agent, user } = await verifiedUser(t);
    const expires = new Date(Date.now() + 7 * 86400_000).toISOString();
    const res = await agent
      .post('/api/user/api-keys')
      .send({ name: ' Build server ', expires_at: expires })
      .expect(201);
    const created = res.body.payload;
    expect(res.body.message).toBe('API key created. Copy it now: it will not be shown again.');
    expect(created.key).toMatch(/^isk_live_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'Build server',
      prefix: created.key.slice(0, 13),
      last4: created.key.slice(-4),
      expires_at: expires,
    });

    const row = await t.ctx.db('api_keys').where({ id: created.id }).first();
    expect(row.key_hash).toBe(hashKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = (await agent.get('/api/user/api-keys').expect(200)).body.payload;
    expect(list).toEqual([
      {
        id: created.id,
        name: 'Build server',
        prefix: created.prefix,
        last4: created.last4,
        created_at: created.created_at,
        expires_at: expires,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(created.key);

    await bare().get('/api/user/profile').set('Authorization', `Bearer ${created.key}`).expect(200);
    const used = (await agent.get('/api/user/api-keys').expect(200)).body.payload[0];
    expect(Date.parse(used.last_used_at)).toBeGreaterThan(Date.now() - 60_000);

    const other = await verifiedUser(t);
    await other.agent.delete(`/api/user/api-keys/${created.id}`).expect(404);
    await agent.delete(`/api/user/api-keys/${created.id}`).expect(200);
    await agent.delete(`/api/user/api-keys/${created.id}`).expect(404);
    expect((await agent.get('/api/user/api-keys').expect(200)).body.payload).toEqual([]);
    expect(
      (await bare().get('/api/user/profile').set('Authorization', `Bearer ${created.key}`).expect(401)).body,
    ).toEqual(UNAUTHENTICATED);
    expect(user.id).toBe(row.user_id);
  });

  it('validates the name and expiry, and needs the XSRF header and a session', async () => {
    const { agent } = await verifiedUser(t);
    const bad = await agent
      .post('/api/user/api-keys')
      .send({ name: '  ', expires_at: '2001-01-01T00:00:00Z' })
      .expect(422);
    expect(bad.body.errors).toEqual({
      name: ['Name is required'],
      expires_at: ['The expiry date must be in the future.'],
    });
    const plain = t.agent();
    await plain.get('/api/is-auth');
    expect((await plain.post('/api/user/api-keys').send({ name: 'x' }).expect(403)).body.code).toBe('csrf_invalid');
    const guest = await xsrfAgent(t);
    await guest.post('/api/user/api-keys').send({ name: 'x' }).expect(401);
    await guest.get('/api/user/api-keys').expect(401);
  });
});

describe('key limits and the webhook secret', () => {
  it('keeps at most MAX_API_KEYS_PER_USER working keys per account, concurrent creations included', async () => {
    const { agent } = await verifiedUser(t);
    const made = await Promise.all(
      Array.from({ length: MAX_API_KEYS_PER_USER + 5 }, (_, i) =>
        agent.post('/api/user/api-keys').send({ name: `k${i}` }),
      ),
    );
    expect(made.filter((r) => r.status === 201)).toHaveLength(MAX_API_KEYS_PER_USER);
    const refused = made.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.errors])).toEqual(
      Array(5).fill([422, { name: [API_KEY_MESSAGES.tooMany] }]),
    );
    // Revoking one makes room for one.
    const one = (made.find((r) => r.status === 201)!.body.payload as { id: string }).id;
    await agent.delete(`/api/user/api-keys/${one}`).expect(200);
    await agent.post('/api/user/api-keys').send({ name: 'again' }).expect(201);
    await agent.post('/api/user/api-keys').send({ name: 'one too many' }).expect(422);
  });

  it('rotates the webhook secret (session and XSRF only)', async () => {
    const { agent } = await verifiedUser(t);
    const before = (await agent.get('/api/user/webhook-secret').expect(200)).body.payload.secret as string;
    const rotated = await agent.post('/api/user/webhook-secret/rotate').expect(200);
    expect(rotated.headers['cache-control']).toBe('private, no-store');
    const after = rotated.body.payload.secret as string;
    expect(after).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    expect((await agent.get('/api/user/webhook-secret').expect(200)).body.payload.secret).toBe(after);
    const { key } = await newKey(agent);
    await bare().post('/api/user/webhook-secret/rotate').set('Authorization', `Bearer ${key}`).expect(403);
    await t.agent().post('/api/user/webhook-secret/rotate').expect(403);
  });
});

describe('a password change', () => {
  it('tells a user with working keys, in the password notice, that the keys still work, with a link to revoke them', async () => {
    const { agent, user, password } = await verifiedUser(t);
    const { key } = await newKey(agent);
    await agent
      .post('/api/user/change-password')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    const mail = await waitForMail(t, user.email, 'Your password was changed');
    expect(mail.text).toContain('Your API keys still work: a password change does not revoke them.');
    expect(mail.links.apiKeys).toBe(`${t.config.APP_URL}/account/api-keys`);
    await bare().get('/api/user/profile').set('Authorization', `Bearer ${key}`).expect(200);
  });

  it('says nothing about keys to a user who has none', async () => {
    const { agent, user, password } = await verifiedUser(t);
    await agent
      .post('/api/user/change-password')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    const mail = await waitForMail(t, user.email, 'Your password was changed');
    expect(mail.text).not.toContain('API key');
    expect(mail.links.apiKeys).toBeUndefined();
  });
});

describe('calling the API with a key', () => {
  it('reads the profile and the ledger with Bearer or X-Api-Key, without cookies', async () => {
    const { agent, email } = await verifiedUser(t, { balanceTokens: 7 });
    const { key } = await newKey(agent);
    const profile = await bare().get('/api/user/profile').set('Authorization', `Bearer ${key}`).expect(200);
    expect(profile.body.payload).toMatchObject({ email, balance: 7 });
    expect(profile.headers['set-cookie']).toBeUndefined();
    const ledger = await bare().get('/api/user/ledger').set('X-Api-Key', key).expect(200);
    expect(ledger.body.payload.items[0].balance_after).toBe(7);
    await bare().get('/api/user/ledger.csv').set('X-Api-Key', key).expect(200);
  });

  it('answers 403 on everything a key may not do, and 401 to unknown, revoked and expired keys', async () => {
    const { agent } = await verifiedUser(t);
    const { key, id } = await newKey(agent);
    const auth = { Authorization: `Bearer ${key}` };
    const calls: Array<[string, string]> = [
      ['put', '/api/user/profile'],
      ['post', '/api/user/change-password'],
      ['get', '/api/user/api-keys'],
      ['post', '/api/user/api-keys'],
      ['delete', `/api/user/api-keys/${id}`],
      ['get', '/api/user/webhook-secret'],
      ['post', '/api/deposit/checkout'],
      ['get', '/api/user/payment-history'],
      ['post', '/api/logout'],
      ['get', '/api/tools/quote?tool=generate'],
    ];
    for (const [method, url] of calls) {
      const res = await (bare() as unknown as Record<string, (u: string) => supertest.Test>)[method]!(url)
        .set(auth)
        .send({});
      expect([method, url, res.status, res.body]).toEqual([method, url, 403, FORBIDDEN]);
    }
    expect((await agent.get('/api/user/api-keys').expect(200)).body.payload).toHaveLength(1);

    expect(
      (await bare().get('/api/user/profile').set('Authorization', 'Bearer isk_live_unknown').expect(401)).body,
    ).toEqual(UNAUTHENTICATED);
    expect((await bare().get('/api/user/profile').set('X-Api-Key', 'something-else').expect(401)).body).toEqual(
      UNAUTHENTICATED,
    );
    await t.ctx
      .db('api_keys')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await bare().get('/api/jobs').set(auth).expect(401)).body).toEqual(UNAUTHENTICATED);
  });

  it("runs and deletes jobs without XSRF, and never shows another user's job", async () => {
    const a = await verifiedUser(t, { balanceTokens: 10 });
    const b = await verifiedUser(t, { balanceTokens: 10 });
    const keyA = (await newKey(a.agent)).key;
    const keyB = (await newKey(b.agent)).key;
    const res = await bare()
      .post('/api/tools/generate')
      .set('Authorization', `Bearer ${keyA}`)
      .send({ prompt: 'a lighthouse', size: '1024x1024' })
      .expect(202);
    const job = res.body.payload as JobView;
    const asA = t.agent();
    asA.set('Authorization', `Bearer ${keyA}`);
    await waitForStatus(asA, job.id, ['succeeded']);
    expect(worker.started).toContain(job.id);
    expect((await bare().get('/api/jobs').set('X-Api-Key', keyA).expect(200)).body.payload.total).toBe(1);
    await bare().get(`/api/jobs/${job.id}`).set('X-Api-Key', keyB).expect(404);
    await bare().post(`/api/jobs/${job.id}/cancel`).set('X-Api-Key', keyB).expect(404);
    await bare().delete(`/api/jobs/${job.id}`).set('X-Api-Key', keyB).expect(404);
    await bare().delete(`/api/jobs/${job.id}`).set('X-Api-Key', keyA).expect(200);
    expect((await b.agent.get('/api/jobs').expect(200)).body.payload.total).toBe(0);
  }, 20_000);

  it('applies the email-verification rule of the browser', async () => {
    const { user, email, password } = await createUser(t);
    const agent = await xsrfAgent(t);
    const h = await csrfHeaders(agent);
    await agent.post('/api/login').set(h).send({ username: email, password }).expect(200);
    const { key } = await newKey(agent);
    const res = await bare()
      .post('/api/tools/generate')
      .set('X-Api-Key', key)
      .send({ prompt: 'x', size: '1024x1024' })
      .expect(403);
    expect(res.body.code).toBe('email_not_verified');
    expect((await bare().get('/api/user/profile').set('X-Api-Key', key).expect(200)).body.payload.id).toBe(user.id);
  });

  it('limits requests per key in Redis with a 429 and Retry-After', async () => {
    const limited = await createTestContext({ API_KEY_RATE_PER_MINUTE: '3' });
    try {
      const { agent } = await verifiedUser(limited);
      const first = (await newKey(agent, 'one')).key;
      const second = (await newKey(agent, 'two')).key;
      for (let i = 0; i < 3; i += 1) await limited.agent().get('/api/user/profile').set('X-Api-Key', first).expect(200);
      const res = await limited.agent().get('/api/user/profile').set('X-Api-Key', first).expect(429);
      expect(res.body.code).toBe('rate_limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await limited.agent().get('/api/user/profile').set('X-Api-Key', second).expect(200);
    } finally {
      await limited.close();
    }
  });
});
