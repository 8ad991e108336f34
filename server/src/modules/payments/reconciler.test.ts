import { randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../../test/harness';
import type { FakeStripe } from '../../test/fake-stripe';
import * as repo from './deposits.repository';
import { paymentsFor } from './payments.context';
import { reconcileExclusively, reconcileOnce } from './reconciler';
import { balanceOf, fakeStripeEnv, insertDeposit, insertUser, openSession, withFakeStripeApp } from './test-support';

describe('payments reconciler', () => {
  let fake: FakeStripe;
  let t: TestContext;
  // The reconciler works on every open deposit: a database of its own, new each run, so deposits left by
  // other tests or earlier runs never crowd this file's deposits out of a pass.
  withFakeStripeApp((env) => ({ fake, t } = env), { freshDatabase: 'reconciler' });

  /** A Stripe deposit with an open session, created `ageMinutes` ago. */
  async function depositAged(ageMinutes: number, provider: 'stripe' | 'test' = 'stripe') {
    const userId = await insertUser(t.ctx.db);
    const deposit = await insertDeposit(t.ctx.db, userId, { provider });
    const sessionId = provider === 'stripe' ? await openSession(t.ctx.db, fake, deposit) : null;
    await t.ctx
      .db('deposits')
      .where({ id: deposit.id })
      .update({ created_at: new Date(Date.now() - ageMinutes * 60_000) });
    return { userId, deposit, sessionId };
  }
  const status = async (id: string) => (await repo.findDeposit(t.ctx.db, id))!.status;

  it('settles open deposits older than 10 minutes from Stripe, leaves younger ones to the webhook', async () => {
    const old = await depositAged(11);
    const young = await depositAged(5);
    const unpaid = await depositAged(30);
    fake.pay(old.sessionId!);
    fake.pay(young.sessionId!);
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(old.deposit.id)).toBe('Success');
    expect(await balanceOf(t.ctx.db, old.userId)).toBe(100);
    expect(await status(young.deposit.id)).toBe('Pending');
    expect(await status(unpaid.deposit.id)).toBe('Pending');
  });

  it('expires abandoned Pending deposits: Stripe ones after 24 hours (at Stripe too), test checkouts after 30 minutes', async () => {
    const stale = await depositAged(24 * 60 + 5);
    const dayOld = await depositAged(23 * 60);
    const staleTest = await depositAged(31, 'test');
    const freshTest = await depositAged(20, 'test');
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(stale.deposit.id)).toBe('Expired');
    expect(fake.sessions.get(stale.sessionId!)!.status).toBe('expired');
    expect(await status(dayOld.deposit.id)).toBe('Pending');
    expect(await status(staleTest.deposit.id)).toBe('Expired');
    expect(await status(freshTest.deposit.id)).toBe('Pending');
    expect(await balanceOf(t.ctx.db, staleTest.userId)).toBe(0);
  });

  it('expires a stale deposit whose session Stripe does not know', async () => {
    const lost = await depositAged(24 * 60 + 5);
    await repo.updateDeposit(t.ctx.db, lost.deposit.id, { stripe_session_id: `cs_test_unknown_${randomUUID()}` });
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(lost.deposit.id)).toBe('Expired');
  });

  it('fulfils instead of expiring when the old session was paid meanwhile', async () => {
    const stale = await depositAged(24 * 60 + 5);
    fake.pay(stale.sessionId!);
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(stale.deposit.id)).toBe('Success');
    expect(await balanceOf(t.ctx.db, stale.userId)).toBe(100);
  });

  it('moves an unpaid completed session to Processing and never expires it', async () => {
    const slow = await depositAged(24 * 60 + 5);
    fake.pay(slow.sessionId!, { async: true });
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(slow.deposit.id)).toBe('Processing');
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(slow.deposit.id)).toBe('Processing');
    fake.settleAsync(slow.sessionId!, true);
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(slow.deposit.id)).toBe('Success');
  });

  it('keeps going when Stripe fails for one deposit, and retries it on the next pass', async () => {
    const a = await depositAged(16);
    const b = await depositAged(15);
    fake.pay(a.sessionId!);
    fake.pay(b.sessionId!);
    // Three 500s in a row: the first deposit of the pass (the older, never checked) fails even after
    // the SDK's two retries; the pass goes on with the next one.
    fake.failNext(3);
    const first = await reconcileOnce(paymentsFor(t.ctx));
    expect(first.failed).toBeGreaterThanOrEqual(1);
    expect(await status(a.deposit.id)).toBe('Pending');
    expect(await status(b.deposit.id)).toBe('Success');
    await reconcileOnce(paymentsFor(t.ctx));
    expect(await status(a.deposit.id)).toBe('Success');
  });

  it('runs one pass at a time across processes', async () => {
    const other = await createTestContext({ ...fakeStripeEnv(fake), DATABASE_URL: t.config.DATABASE_URL });
    try {
      const results = await Promise.all([
        reconcileExclusively(paymentsFor(t.ctx)),
        reconcileExclusively(paymentsFor(other.ctx)),
      ]);
      expect(results.filter((r) => r === null)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
