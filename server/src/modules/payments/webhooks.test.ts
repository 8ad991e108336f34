import { randomUUID } from 'node:crypto';
import type { TestContext } from '../../test/harness';
import { mailsTo, waitForMail } from '../../test/auth-helpers';
import type { FakeSession, FakeStripe } from '../../test/fake-stripe';
import { applyEntryNow } from '../ledger';
import * as repo from './deposits.repository';
import { AMOUNT_MISMATCH } from './fulfilment.service';
import {
  balanceOf,
  deliver,
  insertDeposit,
  insertUser,
  ledgerRows,
  openSession,
  withFakeStripeApp,
} from './test-support';

describe('POST /api/webhooks/stripe', () => {
  let fake: FakeStripe;
  let t: TestContext;

  withFakeStripeApp((env) => ({ fake, t } = env));

  /** A user with a Pending 10-token deposit whose Checkout Session is open on the fake. */
  async function pendingDeposit(overrides: Partial<repo.NewDeposit> = {}) {
    const userId = await insertUser(t.ctx.db);
    const deposit = await insertDeposit(t.ctx.db, userId, overrides);
    const sessionId = await openSession(t.ctx.db, fake, deposit);
    return { userId, deposit, sessionId };
  }

  const status = async (id: string) => (await repo.findDeposit(t.ctx.db, id))!.status;

  describe('signature checks', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: Array<[string, (payload: string) => { body: string; header?: string }]> = [
      ['a mutated body', (p) => ({ body: p.replace('"paid"', '"paid" '), header: fake.sign(p) })],
      ['a wrong secret', (p) => ({ body: p, header: fake.sign(p, { secret: 'whsec_not_the_secret' }) })],
      ['a stale timestamp', (p) => ({ body: p, header: fake.sign(p, { timestamp: now() - 301 }) })],
      ['a timestamp far in the future', (p) => ({ body: p, header: fake.sign(p, { timestamp: now() + 3600 }) })],
      ['no signature header', (p) => ({ body: p })],
      ['a header without a timestamp', (p) => ({ body: p, header: fake.sign(p).replace(/t=\d+,/, '') })],
    ];

    it.each(cases)('refuses %s with 400 and writes nothing', async (_name, tamper) => {
      const { userId, deposit, sessionId } = await pendingDeposit();
      const event = fake.event('checkout.session.completed', fake.pay(sessionId));
      const { body, header } = tamper(JSON.stringify(event));
      const req = t.agent().post('/api/webhooks/stripe').set('Content-Type', 'application/json');
      if (header) req.set('Stripe-Signature', header);
      const res = await req.send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'ERROR', code: 'bad_request' });
      expect(await status(deposit.id)).toBe('Pending');
      expect(await repo.countEvents(t.ctx.db, deposit.id)).toBe(0);
      expect(await t.ctx.db('stripe_events').where({ id: event.id }).first()).toBeUndefined();
      expect(await ledgerRows(t.ctx.db, userId)).toEqual([]);
    });

    it('accepts a valid signature, marks the deposit Success and credits its tokens once', async () => {
      const { userId, deposit, sessionId } = await pendingDeposit();
      const res = await deliver(t.agent(), fake, fake.event('checkout.session.completed', fake.pay(sessionId)));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'OK', payload: { received: true, result: 'handled' } });
      expect(await status(deposit.id)).toBe('Success');
      expect(await balanceOf(t.ctx.db, userId)).toBe(100);
      const rows = await ledgerRows(t.ctx.db, userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'purchase',
        delta_tenths: '100',
        idempotency_key: `deposit:${deposit.id}`,
      });
    });

    it('accepts a timestamp a little in the future (clock skew) and a little old', async () => {
      for (const skew of [120, -120]) {
        const { deposit, sessionId } = await pendingDeposit();
        const res = await deliver(t.agent(), fake, fake.event('checkout.session.completed', fake.pay(sessionId)), {
          timestamp: Math.floor(Date.now() / 1000) + skew,
        });
        expect(res.status).toBe(200);
        expect(await status(deposit.id)).toBe('Success');
      }
    });
  });

  it('credits once when one event arrives 50 times at once', async () => {
    const { userId, deposit, sessionId } = await pendingDeposit();
    const event = fake.event('checkout.session.completed', fake.pay(sessionId));
    const replies = await Promise.all(Array.from({ length: 50 }, () => deliver(t.agent(), fake, event)));
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
    const results = replies.map((r) => r.body.payload.result as string);
    expect(results.filter((r) => r === 'handled')).toHaveLength(1);
    expect(results.filter((r) => r === 'duplicate')).toHaveLength(49);
    expect(await balanceOf(t.ctx.db, userId)).toBe(100);
    expect(await ledgerRows(t.ctx.db, userId)).toHaveLength(1);
    expect(await repo.countEvents(t.ctx.db, deposit.id)).toBe(1);
  });

  it('credits once when a completed and an async-succeeded event both report the payment', async () => {
    const { userId, sessionId } = await pendingDeposit();
    const paid = fake.pay(sessionId);
    await deliver(t.agent(), fake, fake.event('checkout.session.completed', paid)).expect(200);
    await deliver(t.agent(), fake, fake.event('checkout.session.async_payment_succeeded', paid)).expect(200);
    expect(await balanceOf(t.ctx.db, userId)).toBe(100);
  });

  describe('event orderings', () => {
    type Kind = 'completedPaid' | 'completedUnpaid' | 'asyncSucceeded' | 'asyncFailed' | 'expired';
    const TERMINAL: Partial<Record<Kind, repo.DepositStatus>> = {
      completedPaid: 'Success',
      asyncSucceeded: 'Success',
      asyncFailed: 'Error',
      expired: 'Expired',
    };
    const permutations = <T>(items: T[]): T[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );

    function eventFor(kind: Kind, session: FakeSession) {
      const complete = { ...session, status: 'complete', payment_intent: 'pi_ordering', url: null };
      switch (kind) {
        case 'completedPaid':
          return fake.event('checkout.session.completed', { ...complete, payment_status: 'paid' });
        case 'completedUnpaid':
          return fake.event('checkout.session.completed', { ...complete, payment_status: 'unpaid' });
        case 'asyncSucceeded':
          return fake.event('checkout.session.async_payment_succeeded', { ...complete, payment_status: 'paid' });
        case 'asyncFailed':
          return fake.event('checkout.session.async_payment_failed', { ...complete, payment_status: 'unpaid' });
        case 'expired':
          return fake.event('checkout.session.expired', { ...session, status: 'expired', url: null });
      }
    }

    const orders = [
      ...permutations<Kind>(['completedUnpaid', 'asyncSucceeded', 'asyncFailed', 'expired']),
      ...permutations<Kind>(['completedPaid', 'asyncSucceeded', 'expired']),
    ];

    it(`ends in the first terminal state and credits only on Success, for all ${orders.length} orders`, async () => {
      for (const order of orders) {
        const { userId, deposit, sessionId } = await pendingDeposit();
        const session = fake.sessions.get(sessionId)!;
        const seen: repo.DepositStatus[] = [];
        for (const kind of order) {
          await deliver(t.agent(), fake, eventFor(kind, session)).expect(200);
          seen.push(await status(deposit.id));
        }
        const firstTerminal = order.map((k) => TERMINAL[k]).find(Boolean)!;
        const label = order.join(' > ');
        expect({ label, final: seen.at(-1) }).toEqual({ label, final: firstTerminal });
        if (order[0] === 'completedUnpaid') expect({ label, first: seen[0] }).toEqual({ label, first: 'Processing' });
        // Once terminal, every later event left it as it was.
        const terminalAt = seen.findIndex((s) => s !== 'Processing' && s !== 'Pending');
        expect(new Set(seen.slice(terminalAt))).toEqual(new Set([firstTerminal]));
        expect({ label, balance: await balanceOf(t.ctx.db, userId) }).toEqual({
          label,
          balance: firstTerminal === 'Success' ? 100 : 0,
        });
      }
    });
  });

  it('does not credit a payment whose amount differs from the order, and records why', async () => {
    const { userId, deposit, sessionId } = await pendingDeposit();
    const paid = { ...fake.pay(sessionId), amount_total: 1 };
    await deliver(t.agent(), fake, fake.event('checkout.session.completed', paid)).expect(200);
    const after = (await repo.findDeposit(t.ctx.db, deposit.id))!;
    expect(after).toMatchObject({ status: 'Error', error: AMOUNT_MISMATCH });
    expect(await balanceOf(t.ctx.db, userId)).toBe(0);
  });

  it('does not credit a payment in another currency', async () => {
    const { userId, deposit, sessionId } = await pendingDeposit();
    const paid = { ...fake.pay(sessionId), currency: 'jpy' };
    await deliver(t.agent(), fake, fake.event('checkout.session.completed', paid)).expect(200);
    expect(await status(deposit.id)).toBe('Error');
    expect(await balanceOf(t.ctx.db, userId)).toBe(0);
  });

  it('ignores events of sessions that are not ours, and unknown event types', async () => {
    const foreign = fake.event('checkout.session.completed', {
      id: 'cs_other',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      metadata: {},
    });
    expect((await deliver(t.agent(), fake, foreign).expect(200)).body.payload.result).toBe('ignored');
    const unknownId = fake.event('checkout.session.completed', {
      id: 'cs_x',
      status: 'complete',
      payment_status: 'paid',
      metadata: { deposit_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect((await deliver(t.agent(), fake, unknownId).expect(200)).body.payload.result).toBe('ignored');
    expect(
      (await deliver(t.agent(), fake, fake.event('customer.created', { id: 'cus_1' })).expect(200)).body.payload.result,
    ).toBe('ignored');
  });

  describe('charge.refunded', () => {
    async function paidDeposit(startBalance = 0) {
      const userId = await insertUser(t.ctx.db, startBalance);
      const deposit = await insertDeposit(t.ctx.db, userId);
      const sessionId = await openSession(t.ctx.db, fake, deposit);
      await deliver(t.agent(), fake, fake.event('checkout.session.completed', fake.pay(sessionId))).expect(200);
      return { userId, deposit, sessionId };
    }

    it('takes back all the tokens of a full refund, once however often the event arrives', async () => {
      const { userId, deposit, sessionId } = await paidDeposit(30);
      expect(await balanceOf(t.ctx.db, userId)).toBe(130);
      const event = fake.event('charge.refunded', fake.refund(sessionId));
      await Promise.all([1, 2, 3].map(() => deliver(t.agent(), fake, event).expect(200)));
      expect(await balanceOf(t.ctx.db, userId)).toBe(30);
      const reversal = (await ledgerRows(t.ctx.db, userId)).filter((r) => r.kind === 'reversal');
      expect(reversal).toHaveLength(1);
      expect(reversal[0]).toMatchObject({ delta_tenths: '-100', idempotency_key: `deposit:${deposit.id}:refund:1234` });
      expect(await status(deposit.id)).toBe('Success');
    });

    it('reverses partial refunds in proportion, each difference once', async () => {
      const { userId, sessionId } = await paidDeposit();
      await deliver(t.agent(), fake, fake.event('charge.refunded', fake.refund(sessionId, 617))).expect(200);
      expect(await balanceOf(t.ctx.db, userId)).toBe(50);
      await deliver(t.agent(), fake, fake.event('charge.refunded', fake.refund(sessionId, 617))).expect(200);
      expect(await balanceOf(t.ctx.db, userId)).toBe(0);
    });

    it('emails one confirmation with the receipt link when paid, and one notice per refund, in the checkout language', async () => {
      const email = `${randomUUID()}@example.test`;
      const billing = {
        name: 'Ada',
        surname: 'Lovelace',
        email,
        phone: '+447911123456',
        country_id: 826,
        country: 'UK',
        city: 'London',
        address: '1 Main St',
        post_code: 'N1',
      };
      const { deposit, sessionId } = await pendingDeposit({ billing, lang: 'de' });
      const paidEvent = fake.event('checkout.session.completed', fake.pay(sessionId));
      await Promise.all([1, 2, 3].map(() => deliver(t.agent(), fake, paidEvent).expect(200)));
      const invoice = (await repo.findDeposit(t.ctx.db, deposit.id))!.invoice_number!;
      const paidMail = await waitForMail(t, email, 'Zahlung erhalten');
      expect(paidMail.subject).toBe(`Zahlung erhalten: 10 Tokens (${invoice})`);
      expect(paidMail.links.receipt).toBe(`${t.config.APP_URL}/account/payments/${deposit.id}/receipt`);
      // German money style in a German email: "12,34 €" (Intl puts a no-break space before the sign).
      expect(paidMail.text).toContain('12,34\u00a0€');
      expect(paidMail.html).toContain(`href="${paidMail.links.receipt}"`);

      await deliver(t.agent(), fake, fake.event('charge.refunded', fake.refund(sessionId, 617))).expect(200);
      const refundMail = await waitForMail(t, email, 'Erstattung');
      expect(refundMail.subject).toBe(`Erstattung von 6,17\u00a0€ (${invoice})`);
      expect(refundMail.links.receipt).toBe(paidMail.links.receipt);
      await new Promise((r) => setTimeout(r, 200));
      // redelivered events sent nothing more
      expect(mailsTo(t, email).map((m) => m.subject)).toEqual([paidMail.subject, refundMail.subject]);
    });

    it('never takes the balance below zero and records the shortfall when tokens were spent', async () => {
      const { userId, deposit, sessionId } = await paidDeposit();
      await applyEntryNow(t.ctx.db, {
        userId,
        deltaTenths: -70,
        kind: 'spend',
        idempotencyKey: `test-spend:${deposit.id}`,
      });
      await deliver(t.agent(), fake, fake.event('charge.refunded', fake.refund(sessionId))).expect(200);
      expect(await balanceOf(t.ctx.db, userId)).toBe(0);
      const reversal = (await ledgerRows(t.ctx.db, userId)).find((r) => r.kind === 'reversal')!;
      expect(reversal).toMatchObject({ delta_tenths: '-30' });
      expect(reversal.metadata.shortfall_tenths).toBe(70);
    });
  });
});
