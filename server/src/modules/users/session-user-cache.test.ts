import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestContext, type TestContext } from '../../test/harness';
import { signIn, verifiedUser, xsrfAgent } from '../../test/auth-helpers';
import { noticeFor, untilDown, untilListening } from '../../test/user-notices';
import { applyEntryNow } from '../ledger';

/** An UPDATE that fires no trigger, so no notice: what a process would see if notices were lost. */
async function updateSilently(db: Knex, id: string, fields: Record<string, unknown>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    await trx('users').where({ id }).update(fields);
  });
}

/** Two apps on one database and one Redis, as two API processes behind a load balancer. */
describe('session user cache across app instances', () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    a = await createTestContext();
    b = await createTestContext();
    await Promise.all([untilListening(a), untilListening(b)]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  const balanceOn = async (agent: Awaited<ReturnType<typeof verifiedUser>>['agent']) =>
    (await agent.get('/api/user/profile').expect(200)).body.payload.balance as number;

  it('serves the session user from memory until a notice drops it', async () => {
    const { agent, user } = await verifiedUser(b, { balanceTokens: 4 });
    expect(await balanceOn(agent)).toBe(4);
    // Without a notice the cached row stays: this is what the trigger and the LISTEN connection are for.
    await updateSilently(b.ctx.db, user.id, { balance_tenths: 90 });
    expect(await balanceOn(agent)).toBe(4);
    const notice = noticeFor(b, user.id);
    await b.ctx.db('users').where({ id: user.id }).update({ updated_at: b.ctx.db.fn.now() });
    await notice;
    expect(await balanceOn(agent)).toBe(9);
  });

  it('ends the sessions on the other instance when the password changes through this one', async () => {
    const { agent: onB, user, email, password } = await verifiedUser(b);
    await onB.get('/api/user/profile').expect(200);
    await onB.get('/api/user/profile').expect(200);
    const onA = await xsrfAgent(a);
    expect((await signIn(onA, email, password)).status).toBe(200);

    const notice = noticeFor(b, user.id);
    await onA
      .post('/api/user/change-password')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    await notice;
    await onB.get('/api/user/profile').expect(401);
    // The session that changed it goes on, on either instance (the cookie is shared through Redis).
    await onA.get('/api/user/profile').expect(200);
  });

  it('ends the sessions on both instances when the account is disabled', async () => {
    const { agent: onB, user, email, password } = await verifiedUser(b);
    const onA = await xsrfAgent(a);
    expect((await signIn(onA, email, password)).status).toBe(200);
    await onA.get('/api/user/profile').expect(200);
    await onB.get('/api/user/profile').expect(200);

    const notices = Promise.all([noticeFor(a, user.id), noticeFor(b, user.id)]);
    await a.ctx.db('users').where({ id: user.id }).update({ disabled_at: a.ctx.db.fn.now() });
    await notices;
    await onA.get('/api/user/profile').expect(401);
    await onB.get('/api/user/profile').expect(401);
  });

  it('shows the balance of a charge or a credit made elsewhere on the next request', async () => {
    const { agent: onB, user } = await verifiedUser(b, { balanceTokens: 10 });
    expect(await balanceOn(onB)).toBe(10);

    let notice = noticeFor(b, user.id);
    await applyEntryNow(a.ctx.db, {
      userId: user.id,
      deltaTenths: -25,
      kind: 'adjustment',
      idempotencyKey: `test-charge:${randomUUID()}`,
      reason: 'test charge',
    });
    await notice;
    expect(await balanceOn(onB)).toBe(7.5);

    notice = noticeFor(b, user.id);
    await applyEntryNow(a.ctx.db, {
      userId: user.id,
      deltaTenths: 100,
      kind: 'adjustment',
      idempotencyKey: `test-credit:${randomUUID()}`,
      reason: 'test credit',
    });
    await notice;
    expect(await balanceOn(onB)).toBe(17.5);
  });

  it('reads Postgres on every request while the LISTEN connection is down, and starts afresh once it is back', async () => {
    const { agent: onB, user } = await verifiedUser(b, { balanceTokens: 3 });
    expect(await balanceOn(onB)).toBe(3);
    const pid = b.ctx.services.sessionUsers.backendPid;
    expect(pid).toEqual(expect.any(Number));

    const down = untilDown(b);
    await a.ctx.db.raw('select pg_terminate_backend(?)', [pid]);
    await down;
    expect(b.ctx.services.sessionUsers.listening).toBe(false);
    // No notice reaches anyone for these changes. While the connection is down every request reads Postgres,
    // and the reconnect (after half a second) empties the cache, so neither may serve the old row.
    await updateSilently(a.ctx.db, user.id, { balance_tenths: 55 });
    expect(await balanceOn(onB)).toBe(5.5);
    await updateSilently(a.ctx.db, user.id, { balance_tenths: 66 });
    expect(await balanceOn(onB)).toBe(6.6);

    await untilListening(b);
    expect(b.ctx.services.sessionUsers.backendPid).not.toBe(pid);
    expect(await balanceOn(onB)).toBe(6.6);
    const notice = noticeFor(b, user.id);
    await a.ctx.db('users').where({ id: user.id }).update({ disabled_at: a.ctx.db.fn.now() });
    await notice;
    await onB.get('/api/user/profile').expect(401);
  });
});
