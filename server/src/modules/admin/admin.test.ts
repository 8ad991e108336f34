import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { ADMIN_REAUTH_MS, JOB_MESSAGES, JOB_NAMES, ROUTES, heartbeatKey, routes } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import { TEST_PASSWORD, csrfHeaders, signIn, verifiedUser, type VerifiedUser } from '../../test/auth-helpers';
import { createKey } from '../api-keys/api-keys.service';
import { applyEntry, ledgerSum } from '../ledger';
import { finishJob, insertJob } from '../jobs/jobs.repository';
import { settleDeposit } from '../payments/fulfilment.service';
import { insertDeposit } from '../payments/test-support';

let t: TestContext;
let admin: VerifiedUser;
let customer: VerifiedUser;

beforeAll(async () => {
  t = await createTestContext();
  admin = await verifiedUser(t);
  await t.ctx.db('users').where({ id: admin.user.id }).update({ role: 'admin' });
  customer = await verifiedUser(t, { balanceTokens: 10 });
});
afterAll(() => t.close());

/** A job of the customer's, charged like a real one, left in `status`. */
async function makeJob(userId: string, status: 'queued' | 'succeeded', costTenths = 15): Promise<string> {
  const id = randomUUID();
  await t.ctx.db.transaction(async (trx) => {
    await insertJob(trx, {
      id,
      user_id: userId,
      tool: 'upscale',
      params: { factor: 2 },
      cost_tenths: costTenths,
      input_key: null,
      idempotency_key: null,
      request_hash: null,
      request_id: null,
    });
    await applyEntry(trx, {
      userId,
      deltaTenths: -costTenths,
      kind: 'spend',
      idempotencyKey: `job:${id}:charge`,
      metadata: { job_id: id, tool: 'upscale' },
    });
    if (status === 'succeeded') {
      await trx('image_jobs').where({ id }).update({ status: 'running', started_at: trx.fn.now() });
      await finishJob(trx, id, {
        status: 'succeeded',
        result: { files: [{ key: `x/${id}.png` }], provider: 'cpu', timings: { infer: 12 }, notes: [] } as never,
      });
    }
  });
  return id;
}

const balanceOf = async (userId: string) =>
  Number((await t.ctx.db('users').where({ id: userId }).first('balance_tenths')).balance_tenths);

async function confirm(agent: supertest.Agent, password = TEST_PASSWORD) {
  return agent.post('/api/admin/confirm-password').send({ password });
}

/** Every route of the console (`admin` in the route table), with its parameters filled in. */
function consoleRoutes(): Array<{ method: string; path: string }> {
  return ROUTES.filter((route) => route.auth === 'admin').map((route) => ({
    method: route.method,
    path: `/api${route.path.replace(/\{\w+\}/g, randomUUID())}`,
  }));
}

describe('the admin guard', () => {
  it('walks every console route: guests 401, customers 404, API keys refused, XSRF required', async () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(routes.filter((r) => r.method === 'post').length).toBeGreaterThanOrEqual(9);
    const guest = t.agent();
    const guestHeaders = await csrfHeaders(guest);
    const { key } = await createKey(t.ctx, admin.user.id, { name: 'admin key' } as never);
    // An admin signed in on an agent that does not send the XSRF header by itself.
    const bare = t.agent();
    expect((await signIn(bare, admin.email, admin.password)).status).toBe(200);
    for (const { method, path } of routes) {
      const call = (agent: supertest.Agent, url = path) =>
        (agent as unknown as Record<string, (p: string) => supertest.Test>)[method]!(url);
      const asGuest = await call(guest).set(guestHeaders).send({});
      expect([method, path, asGuest.status, asGuest.body.code]).toEqual([method, path, 401, 'unauthenticated']);
      const asCustomer = await call(customer.agent).send({});
      expect([method, path, asCustomer.status, asCustomer.body.code]).toEqual([method, path, 404, 'not_found']);
      // Word for word what an unknown /api path answers: nothing tells a customer the console exists.
      const unknown = await call(customer.agent, `/api/no-such-route-${randomUUID()}`).send({});
      expect(asCustomer.body).toEqual(unknown.body);
      const withKey = await call(t.agent()).set('Authorization', `Bearer ${key}`).send({});
      expect([method, path, withKey.status, withKey.body.code]).toEqual([method, path, 403, 'forbidden']);
      if (method === 'post') {
        const noXsrf = await call(bare).send({});
        expect([method, path, noXsrf.status, noXsrf.body.code]).toEqual([method, path, 403, 'csrf_invalid']);
      }
    }
    // Unknown console paths read the same for customers and admins alike: 404.
    expect((await customer.agent.get('/api/admin/nope')).status).toBe(404);
    expect((await admin.agent.get('/api/admin/nope')).status).toBe(404);
  });

  it("says role admin in an operator's profile only (the client's console link); a customer's has no role", async () => {
    expect((await admin.agent.get('/api/user/profile').expect(200)).body.payload.role).toBe('admin');
    expect((await customer.agent.get('/api/user/profile').expect(200)).body.payload).not.toHaveProperty('role');
  });

  it('lets an admin in: the console session and the overview', async () => {
    const res = await admin.agent.get('/api/admin/session').expect(200);
    expect(res.body.payload).toMatchObject({ user: { id: admin.user.id, email: admin.email }, confirmed_until: null });
    expectReplyMatchesSchema(routes.admin.session, res.body);
    const overviewReply = (await admin.agent.get('/api/admin/overview').expect(200)).body;
    expectReplyMatchesSchema(routes.admin.overview, overviewReply);
    const overview = overviewReply.payload;
    expect(overview.queues.map((q: { tool: string }) => q.tool)).toEqual([...JOB_NAMES]);
    expect(overview.jobs_per_hour).toHaveLength(24);
    expect(overview.deposits_per_day).toHaveLength(30);
    expect(Array.isArray(overview.workers)).toBe(true);
  });
});

describe('the overview', () => {
  it('shows live workers from their heartbeats, a silent one as lost, and open jobs per tool', async () => {
    const beat = (workerId: string, at: Date) => ({
      workerId,
      tools: ['upscale'],
      models: { upscale: ['photo'] },
      provider: 'cpu',
      concurrency: 1,
      version: 'test',
      at: at.toISOString(),
    });
    const prefix = t.config.QUEUE_PREFIX;
    const live = `gpu-host-1:${process.pid}:live`;
    const lost = `gpu-host-2:${process.pid}:lost`;
    await t.ctx.queueRedis.set(heartbeatKey(prefix, live), JSON.stringify(beat(live, new Date())), {
      expiration: { type: 'EX', value: 15 },
    });
    // What the console remembered of a worker whose heartbeat key has since expired (20 s without a beat).
    await t.ctx.queueRedis.hSet(
      `${prefix}:admin:workers-seen`,
      lost,
      JSON.stringify(beat(lost, new Date(Date.now() - 20_000))),
    );
    const user = await verifiedUser(t, { balanceTokens: 5 });
    await makeJob(user.user.id, 'queued');
    const overviewReply = (await admin.agent.get('/api/admin/overview').expect(200)).body;
    expectReplyMatchesSchema(routes.admin.overview, overviewReply);
    const overview = overviewReply.payload;
    expect(overview.workers).toEqual([
      expect.objectContaining({ id: live, host: 'gpu-host-1', tools: ['upscale'], provider: 'cpu', state: 'live' }),
      expect.objectContaining({ id: lost, host: 'gpu-host-2', state: 'lost' }),
    ]);
    const upscale = overview.queues.find((q: { tool: string }) => q.tool === 'upscale');
    expect(upscale.waiting).toBeGreaterThanOrEqual(1);
    expect(upscale.oldest_waiting_s).toBeGreaterThanOrEqual(0);
    const hour = overview.jobs_per_hour[23];
    expect(hour.queued).toBeGreaterThanOrEqual(1);
    // The queue's Redis not answering is a 503, not a 500.
    const spy = jest.spyOn(t.ctx.queue, 'getJobs').mockRejectedValue(new Error('connection lost'));
    try {
      const down = await admin.agent.get('/api/admin/overview');
      expect([down.status, down.body.code]).toEqual([503, 'service_unavailable']);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the queue board (/admin/queues)', () => {
  it('is served to admins only; others get what any unknown page gets; its changes are audited', async () => {
    const unknown = await customer.agent.get('/admin/no-such-page');
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      for (const agent of [customer.agent, t.agent()]) {
        const res = await agent.get(path);
        expect([path, res.status, res.text]).toEqual([path, unknown.status, unknown.text]);
      }
    }
    const page = await admin.agent.get('/admin/queues').expect(200);
    expect(page.text).toContain('Image Studio queues');
    const api = await admin.agent.get('/admin/queues/api/queues').expect(200);
    expect(JSON.stringify(api.body)).toContain('images');
    // A change from the board passes the XSRF check and is written to the audit log.
    expect((await t.agent().put('/admin/queues/api/queues/images/pause')).status).not.toBe(200);
    const paused = await admin.agent.put('/admin/queues/api/queues/images/pause');
    expect(paused.status).toBeLessThan(300);
    await admin.agent.put('/admin/queues/api/queues/images/resume').expect((r) => expect(r.status).toBeLessThan(300));
    const deadline = Date.now() + 2000;
    let rows: Array<{ command: string }> = [];
    while (Date.now() < deadline && rows.length < 2) {
      rows = await t.ctx.db('operator_audit_log').where({ actor_id: admin.user.id }).whereLike('command', 'queues.%');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.map((r) => r.command).sort()).toEqual(['queues.pause', 'queues.resume']);
  });
});

describe('password confirmation (reauth)', () => {
  it('money and account changes need a password confirmed within 10 minutes', async () => {
    const op = await verifiedUser(t);
    await t.ctx.db('users').where({ id: op.user.id }).update({ role: 'admin' });
    const adjust = () =>
      op.agent.post(`/api/admin/users/${customer.user.id}/adjust`).send({ tokens: 1, reason: 'x y z' });
    let res = await adjust();
    expect([res.status, res.body.code]).toEqual([403, 'reauth_required']);
    res = await op.agent
      .post(`/api/admin/users/${customer.user.id}/adjust`)
      .send({ tokens: 1, reason: 'x y z', lang_id: 'de' });
    expect(res.body.message).toBe('Bitte bestätigen Sie Ihr Passwort, um fortzufahren.');

    // A wrong password is a 422 and counts against the login limits (consecutive failures of this account + IP).
    res = await confirm(op.agent, 'wrong-password');
    expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([422, 'validation_failed', ['password']]);
    const limits = t.ctx.services.rateLimits.fixed;
    const account = op.email.toLowerCase();
    expect((await limits.loginPerAccount.get(account))?.consumedPoints).toBe(1);
    const consecutive = await limits.loginConsecutive.get(`${account}|::ffff:127.0.0.1`);
    const consecutiveV4 = await limits.loginConsecutive.get(`${account}|127.0.0.1`);
    expect((consecutive ?? consecutiveV4)?.consumedPoints).toBe(1);
    expect((await adjust()).status).toBe(403);

    res = await confirm(op.agent);
    expect(res.status).toBe(200);
    expectReplyMatchesSchema(routes.admin.confirmPassword, res.body);
    const until = Date.parse(res.body.payload.confirmed_until);
    expect(until - Date.now()).toBeGreaterThan(ADMIN_REAUTH_MS - 5000);
    expect((await adjust()).status).toBe(200);

    // Ten minutes later the confirmation has run out.
    const realNow = Date.now;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ADMIN_REAUTH_MS + 1000);
    try {
      res = await adjust();
      expect([res.status, res.body.code]).toEqual([403, 'reauth_required']);
    } finally {
      spy.mockRestore();
    }
    expect((await op.agent.get('/api/admin/session')).body.payload.confirmed_until).not.toBeNull();
  });

  it('ten wrong passwords in a row lock the confirmation like a login', async () => {
    const op = await verifiedUser(t);
    await t.ctx.db('users').where({ id: op.user.id }).update({ role: 'admin' });
    for (let i = 0; i < 10; i += 1) expect((await confirm(op.agent, `nope-${i}`)).status).toBe(422);
    const res = await confirm(op.agent);
    expect([res.status, res.body.code]).toEqual([429, 'rate_limited']);
  });
});

describe('console actions', () => {
  beforeAll(async () => {
    expect((await confirm(admin.agent)).status).toBe(200);
  });

  it('adjusts a balance either way with a reason the customer reads, never below zero, once per key', async () => {
    const user = await verifiedUser(t, { balanceTokens: 3 });
    const url = `/api/admin/users/${user.user.id}/adjust`;
    let res = await admin.agent.post(url).send({ tokens: 5.5, reason: 'Goodwill for a bad cut-out' });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ applied: true, before: 3, balance: 8.5 });
    expectReplyMatchesSchema(routes.admin.adjustBalance, res.body);
    res = await admin.agent.post(url).send({ tokens: -2, reason: 'Correction' }).set('Idempotency-Key', 'fix-1');
    expect(res.body.payload.balance).toBe(6.5);
    res = await admin.agent.post(url).send({ tokens: -2, reason: 'Correction' }).set('Idempotency-Key', 'fix-1');
    expect(res.body.payload).toMatchObject({ applied: false, balance: 6.5 });
    expectReplyMatchesSchema(routes.admin.adjustBalance, res.body);
    // The same key with another amount, reason or customer is the tool calls' 422, never a silent no-op.
    const other = await verifiedUser(t);
    for (const [target, body] of [
      [url, { tokens: -3, reason: 'Correction' }],
      [url, { tokens: -2, reason: 'Another reason' }],
      [`/api/admin/users/${other.user.id}/adjust`, { tokens: -2, reason: 'Correction' }],
    ] as const) {
      res = await admin.agent.post(target).send(body).set('Idempotency-Key', 'fix-1');
      expect([res.status, res.body.code, res.body.message, res.body.errors]).toEqual([
        422,
        'validation_failed',
        JOB_MESSAGES.idempotencyMismatch,
        { 'Idempotency-Key': [JOB_MESSAGES.idempotencyMismatch] },
      ]);
    }
    res = await admin.agent.post(url).send({ tokens: -7, reason: 'Too much' });
    expect([res.status, res.body.code, res.body.errors.tokens]).toEqual([
      422,
      'validation_failed',
      ['A deduction cannot take the balance below zero.'],
    ]);
    for (const bad of [{ tokens: 0, reason: 'zero' }, { tokens: 0.05, reason: 'tiny' }, { tokens: 1 }]) {
      expect((await admin.agent.post(url).send(bad)).status).toBe(422);
    }
    expect(await balanceOf(user.user.id)).toBe(65);
    expect(await ledgerSum(t.ctx.db, user.user.id)).toBe(65);
    const rows = await t.ctx.db('token_ledger').where({ user_id: user.user.id, kind: 'adjustment' }).orderBy('id');
    expect(rows.slice(-2).map((r) => [Number(r.delta_tenths), r.reason, r.metadata.actor_id])).toEqual([
      [55, 'Goodwill for a bad cut-out', admin.user.id],
      [-20, 'Correction', admin.user.id],
    ]);
    // The customer's own token activity shows the reason.
    const activity = (await user.agent.get('/api/user/ledger').expect(200)).body.payload.items;
    expect(activity.slice(0, 2).map((e: { description: string; amount: number }) => [e.description, e.amount])).toEqual(
      [
        ['Correction', -2],
        ['Goodwill for a bad cut-out', 5.5],
      ],
    );
    const audit = await t.ctx
      .db('operator_audit_log')
      .where({ target: `user:${user.user.id}`, command: 'users.adjust' });
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      operator: admin.email,
      actor_id: admin.user.id,
      details: { tokens: 5.5, reason: 'Goodwill for a bad cut-out', before: { balance: 3 }, after: { balance: 8.5 } },
    });
    expect(audit[0].ip).toMatch(/127\.0\.0\.1/);
  });

  it('refunds a succeeded job exactly once, even for concurrent requests', async () => {
    const user = await verifiedUser(t, { balanceTokens: 10 });
    const jobId = await makeJob(user.user.id, 'succeeded');
    expect(await balanceOf(user.user.id)).toBe(85);
    const url = `/api/admin/jobs/${jobId}/refund`;
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => admin.agent.post(url).send({ reason: 'The cut-out was bad' })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expectReplyMatchesSchema(routes.admin.refundJob, replies.find((r) => r.status === 200)!.body);
    expect(await balanceOf(user.user.id)).toBe(100);
    expect(await ledgerSum(t.ctx.db, user.user.id)).toBe(100);
    const refunds = await t.ctx.db('token_ledger').where({ idempotency_key: `job:${jobId}:refund` });
    expect(refunds.map((r) => [r.kind, Number(r.delta_tenths), r.reason])).toEqual([
      ['refund', 15, 'The cut-out was bad'],
    ]);
    const detailReply = (await admin.agent.get(`/api/admin/jobs/${jobId}`).expect(200)).body;
    expectReplyMatchesSchema(routes.admin.job, detailReply);
    const detail = detailReply.payload;
    expect(detail).toMatchObject({
      status: 'succeeded',
      refunded: true,
      cost: 1.5,
      provider: 'cpu',
      user_email: user.email,
    });
    expect(detail.timings.stages_ms).toEqual({ infer: 12 });
    expect(detail.ledger.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([
      ['spend', -1.5],
      ['refund', 1.5],
    ]);
    expect(await t.ctx.db('operator_audit_log').where({ target: `job:${jobId}`, command: 'jobs.refund' })).toHaveLength(
      1,
    );
    expect(await t.ctx.db('operator_audit_log').where({ target: `job:${jobId}`, command: 'jobs.view' })).toHaveLength(
      1,
    );
    // A job that is still open is cancelled, not refunded here; the cancel refunds it through the usual path.
    const open = await makeJob(user.user.id, 'queued');
    expect((await admin.agent.post(`/api/admin/jobs/${open}/refund`).send({ reason: 'not yet' })).status).toBe(409);
    const cancelled = await admin.agent.post(`/api/admin/jobs/${open}/cancel`).send({});
    expect([cancelled.status, cancelled.body.payload.status]).toEqual([200, 'cancelled']);
    expectReplyMatchesSchema(routes.admin.cancelJob, cancelled.body);
    expect(await balanceOf(user.user.id)).toBe(100);
    expect((await admin.agent.post(`/api/admin/jobs/${open}/cancel`).send({})).status).toBe(409);
  });

  it('finds jobs and users, shows a customer in full (logged), and lists the audit newest first', async () => {
    const user = await verifiedUser(t, { balanceTokens: 4 });
    const jobId = await makeJob(user.user.id, 'succeeded', 10);
    let res = await admin.agent
      .get('/api/admin/jobs')
      .query({ user: user.email, tool: 'upscale', status: 'succeeded' });
    expect(res.body.payload.items.map((j: { id: string }) => j.id)).toEqual([jobId]);
    expectReplyMatchesSchema(routes.admin.jobs, res.body);
    res = await admin.agent.get('/api/admin/jobs').query({ user: user.user.id, status: 'failed' });
    expect(res.body.payload.total).toBe(0);
    res = await admin.agent
      .get('/api/admin/jobs')
      .query({ user: user.user.id, from: new Date(Date.now() + 60_000).toISOString() });
    expect(res.body.payload.total).toBe(0);
    res = await admin.agent.get('/api/admin/users').query({ q: user.email.toUpperCase() });
    expectReplyMatchesSchema(routes.admin.users, res.body);
    expect(res.body.payload.items).toEqual([
      expect.objectContaining({ id: user.user.id, email: user.email, balance: 3, role: 'customer', disabled: false }),
    ]);
    await createKey(t.ctx, user.user.id, { name: 'script' } as never);
    const detailReply = (await admin.agent.get(`/api/admin/users/${user.user.id}`).expect(200)).body;
    expectReplyMatchesSchema(routes.admin.user, detailReply);
    const detail = detailReply.payload;
    expect(detail).toMatchObject({ balance: 3, ledger_sum: 3, email_verified: true });
    expect(detail.jobs.map((j: { id: string }) => j.id)).toEqual([jobId]);
    expect(detail.api_keys.map((k: { name: string }) => k.name)).toEqual(['script']);
    expect(detail).not.toHaveProperty('password_hash');
    expect((await admin.agent.get(`/api/admin/users/${randomUUID()}`)).status).toBe(404);
    const audit = (await admin.agent.get('/api/admin/audit').query({ action: 'users.view', actor: admin.email })).body
      .payload;
    expect(audit.items[0]).toMatchObject({ action: 'users.view', target: `user:${user.user.id}`, actor: admin.email });
    const allReply = (await admin.agent.get('/api/admin/audit').expect(200)).body;
    expectReplyMatchesSchema(routes.admin.audit, allReply);
    const all = allReply.payload.items as Array<{ id: string }>;
    expect(all.map((r) => Number(r.id))).toEqual([...all.map((r) => Number(r.id))].sort((a, b) => b - a));
  });

  it('lists deposits of every user with their Stripe ids, shows a receipt (logged) and counts them per day', async () => {
    const user = await verifiedUser(t);
    const deposit = await insertDeposit(t.ctx.db, user.user.id);
    // Paid through the one fulfilment function, so the invoice number comes from the real gapless sequence.
    await settleDeposit(t.ctx.db, deposit.id, {
      kind: 'paid',
      amountMinor: 1234,
      currency: 'EUR',
      paymentIntentId: `pi_${deposit.id.slice(0, 8)}`,
    });
    const invoice = (await t.ctx.db('deposits').where({ id: deposit.id }).first('invoice_number')).invoice_number;
    const listReply = (
      await admin.agent.get('/api/admin/deposits').query({ user: user.email, status: 'Success' }).expect(200)
    ).body;
    expectReplyMatchesSchema(routes.admin.deposits, listReply);
    const list = listReply.payload;
    expect(list.items).toEqual([
      expect.objectContaining({
        id: deposit.id,
        user_email: user.email,
        status: 'Success',
        tokens: 10,
        amount: 12.34,
        currency: 'EUR',
        stripe_payment_intent: `pi_${deposit.id.slice(0, 8)}`,
      }),
    ]);
    const receipt = await admin.agent.get(`/api/admin/deposits/${deposit.id}/receipt`).expect(200);
    expect(receipt.text).toContain(invoice);
    expect((await customer.agent.get(`/api/admin/deposits/${deposit.id}/receipt`)).status).toBe(404);
    expect((await admin.agent.get(`/api/admin/deposits/${randomUUID()}/receipt`)).status).toBe(404);
    expect(
      await t.ctx.db('operator_audit_log').where({ target: `deposit:${deposit.id}`, command: 'deposits.receipt' }),
    ).toHaveLength(1);
    const today = (await admin.agent.get('/api/admin/overview')).body.payload.deposits_per_day[29];
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.count).toBeGreaterThanOrEqual(1);
    expect(today.amounts.EUR).toBeGreaterThanOrEqual(12.34);
  });

  it('disables and enables an account, signs it out everywhere, revokes a key and resends verification', async () => {
    const user = await verifiedUser(t);
    const base = `/api/admin/users/${user.user.id}`;
    expect((await user.agent.get('/api/user/profile')).status).toBe(200);
    expect((await admin.agent.post(`${base}/sign-out`).send({})).status).toBe(200);
    expect((await user.agent.get('/api/user/profile')).status).toBe(401);

    const again = t.agent();
    await signIn(again, user.email, user.password);
    const disabled = (await admin.agent.post(`${base}/disable`).send({})).body;
    expect(disabled.payload).toEqual({ disabled: true });
    expectReplyMatchesSchema(routes.admin.disableUser, disabled);
    expect((await again.get('/api/user/profile')).status).toBe(401);
    expect((await signIn(t.agent(), user.email, user.password)).status).toBe(422);
    expect((await admin.agent.post(`${base}/enable`).send({})).status).toBe(200);
    expect((await signIn(t.agent(), user.email, user.password)).status).toBe(200);
    const self = await admin.agent.post(`/api/admin/users/${admin.user.id}/disable`).send({});
    expect([self.status, self.body.code]).toEqual([409, 'conflict']);

    const { id: keyId, key } = await createKey(t.ctx, user.user.id, { name: 'ci' } as never);
    expect((await t.agent().get('/api/user/profile').set('X-Api-Key', key)).status).toBe(200);
    expect((await admin.agent.post(`${base}/api-keys/${keyId}/revoke`).send({})).status).toBe(200);
    expect((await t.agent().get('/api/user/profile').set('X-Api-Key', key)).status).toBe(401);
    expect((await admin.agent.post(`${base}/api-keys/${keyId}/revoke`).send({})).status).toBe(404);

    expect((await admin.agent.post(`${base}/resend-verification`).send({})).status).toBe(409);
    await t.ctx.db('users').where({ id: user.user.id }).update({ email_verified_at: null });
    expect((await admin.agent.post(`${base}/resend-verification`).send({})).status).toBe(200);

    const actions = (
      await t.ctx
        .db('operator_audit_log')
        .where({ target: `user:${user.user.id}` })
        .orderBy('id')
    ).map((r) => r.command);
    expect(actions).toEqual([
      'users.sign-out',
      'users.disable',
      'users.enable',
      'users.revoke-key',
      'users.resend-verification',
    ]);
    const disable = await t.ctx
      .db('operator_audit_log')
      .where({ target: `user:${user.user.id}`, command: 'users.disable' })
      .first();
    expect(disable.details).toEqual({ before: { disabled: false }, after: { disabled: true } });
  });

  it("writes a change's audit row in the change's transaction: none for a failed change, one for a done one", async () => {
    const user = await verifiedUser(t, { balanceTokens: 2 });
    const target = `user:${user.user.id}`;
    const auditOf = (command: string) => t.ctx.db('operator_audit_log').where({ target, command });
    const url = `/api/admin/users/${user.user.id}/adjust`;
    // Refused by the service: no row.
    expect((await admin.agent.post(url).send({ tokens: -5, reason: 'Too much' })).status).toBe(422);
    expect(await auditOf('users.adjust')).toHaveLength(0);
    const open = await makeJob(user.user.id, 'queued');
    expect((await admin.agent.post(`/api/admin/jobs/${open}/refund`).send({ reason: 'not yet' })).status).toBe(409);
    expect(await t.ctx.db('operator_audit_log').where({ target: `job:${open}`, command: 'jobs.refund' })).toHaveLength(
      0,
    );
    // Done: exactly one row, and a repeat under the same key changes nothing and writes none.
    for (let i = 0; i < 2; i++)
      expect(
        (await admin.agent.post(url).send({ tokens: 1, reason: 'Once' }).set('Idempotency-Key', 'once')).status,
      ).toBe(200);
    expect(await auditOf('users.adjust')).toHaveLength(1);
    // An audit row that cannot be written undoes the change with it: no tokens, no ledger row, no sign-out.
    const balance = await balanceOf(user.user.id);
    const epoch = (await t.ctx.db('users').where({ id: user.user.id }).first('session_epoch')).session_epoch;
    const guard = `refuse_audit_${user.user.id.replace(/-/g, '')}`;
    await t.ctx.db.raw(
      `CREATE FUNCTION ${guard}() RETURNS trigger AS $$ BEGIN IF NEW.target = '${target}' THEN ` +
        `RAISE EXCEPTION 'audit refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await t.ctx.db.raw(
      `CREATE TRIGGER ${guard} BEFORE INSERT ON operator_audit_log FOR EACH ROW EXECUTE FUNCTION ${guard}()`,
    );
    try {
      expect((await admin.agent.post(url).send({ tokens: 3, reason: 'Lost' })).status).toBe(500);
      expect((await admin.agent.post(`/api/admin/users/${user.user.id}/sign-out`).send({})).status).toBe(500);
      expect((await admin.agent.post(`/api/admin/users/${user.user.id}/disable`).send({})).status).toBe(500);
    } finally {
      await t.ctx.db.raw(`DROP TRIGGER ${guard} ON operator_audit_log`);
      await t.ctx.db.raw(`DROP FUNCTION ${guard}()`);
    }
    expect(await balanceOf(user.user.id)).toBe(balance);
    expect(await t.ctx.db('token_ledger').where({ user_id: user.user.id, reason: 'Lost' })).toHaveLength(0);
    const after = await t.ctx.db('users').where({ id: user.user.id }).first('session_epoch', 'disabled_at');
    expect([after.session_epoch, after.disabled_at]).toEqual([epoch, null]);
    expect((await t.ctx.db('operator_audit_log').where({ target })).map((r) => r.command)).toEqual(['users.adjust']);
  });
});
