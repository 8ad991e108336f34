import { randomUUID } from 'node:crypto';
import { CHECKOUT_MESSAGES as M, routes, toMinorUnits } from '@imagestudio/contracts';
import type { TestContext } from '../../test/harness';
import type { FakeStripe } from '../../test/fake-stripe';
import { createUser, signIn, verifiedUser, xsrfAgent } from '../../test/auth-helpers';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import { quotePackIn, quoteTokensIn } from '../catalog';
import * as repo from './deposits.repository';
import { useStripeClient } from './payments.context';
import { createStripeClient } from './stripe.client';
import { balanceOf, deliver, ledgerRows, withFakeStripeApp } from './test-support';

/** A complete, valid checkout form; `overrides` replace fields (undefined removes one). */
function form(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: 'Ada',
    surname: 'Lovelace',
    email: 'someone-else@example.test',
    phone: '+44 7911 123456',
    country: 826,
    city: 'London',
    address: '12 St James Square',
    postCode: 'SW1Y 4JH',
    save_info: false,
    payment_method_id: 1,
    currency: 'EUR',
    tokens: 150,
    ...overrides,
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return body;
}

describe('POST /api/deposit/checkout with Stripe', () => {
  let fake: FakeStripe;
  let t: TestContext;

  withFakeStripeApp((env) => ({ fake, t } = env));

  const depositOf = async (id: string) => (await repo.findDeposit(t.ctx.db, id))!;
  const sessionOf = (depositId: string) => {
    const sessions = fake.sessionsForDeposit(depositId);
    expect(sessions).toHaveLength(1);
    return sessions[0]!;
  };

  it('creates a Pending deposit and a Checkout Session, and redirects there through an order URL', async () => {
    const { agent, user } = await verifiedUser(t);
    const res = await agent.post('/api/deposit/checkout').send(form()).expect(200);
    expect(res.body).toEqual({
      status: 'OK',
      redirect_url: expect.any(String),
      payload: { deposit_id: expect.any(String) },
    });
    const depositId = res.body.payload.deposit_id as string;
    const redirect = new URL(res.body.redirect_url);
    expect(redirect.searchParams.get('order')).toBe(depositId);

    const deposit = await depositOf(depositId);
    expect(deposit).toMatchObject({
      user_id: user.id,
      status: 'Pending',
      provider: 'stripe',
      tokens_tenths: 1500,
      currency: 'EUR',
    });
    const session = sessionOf(depositId);
    expect(session.client_reference_id).toBe(depositId);
    expect(deposit.stripe_session_id).toBe(session.id);
    // leaving Stripe's page without paying lands on the page that says nothing was charged
    expect(new URL(session.cancel_url).pathname).toBe('/cancelled-payment');

    const hop = await agent.get(`${redirect.pathname}${redirect.search}`).expect(303);
    expect(hop.headers.location).toBe(session.url);
  });

  it('uses the account email, not the form email, and saves billing fields only when asked', async () => {
    const { agent, user, email } = await verifiedUser(t);
    const first = await agent
      .post('/api/deposit/checkout')
      .send(form({ save_info: false, city: 'Paris' }))
      .expect(200);
    expect(sessionOf(first.body.payload.deposit_id).customer_email).toBe(email);
    expect((await depositOf(first.body.payload.deposit_id)).billing).toMatchObject({
      email,
      city: 'Paris',
      country_id: 826,
    });
    let row = await t.ctx.db('users').where({ id: user.id }).first();
    expect(row.city).not.toBe('Paris');

    await agent
      .post('/api/deposit/checkout')
      .send(form({ save_info: true, city: 'Oxford', postCode: 'OX1 1AA' }))
      .expect(200);
    row = await t.ctx.db('users').where({ id: user.id }).first();
    expect(row).toMatchObject({
      name: 'Ada',
      surname: 'Lovelace',
      city: 'Oxford',
      post_code: 'OX1 1AA',
      country_id: 826,
      address: '12 St James Square',
      email,
    });
  });

  describe('validation', () => {
    let agent: Awaited<ReturnType<typeof verifiedUser>>['agent'];
    beforeAll(async () => {
      ({ agent } = await verifiedUser(t));
    });

    const errorsFor = async (body: Record<string, unknown>) => {
      const before = fake.createRequests;
      const res = await agent.post('/api/deposit/checkout').send(body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ status: 'ERROR', code: 'validation_failed' });
      expect(fake.createRequests).toBe(before);
      return res.body.errors as Record<string, string[]>;
    };

    it('asks for a choice when no pack, tokens or amount is given', async () => {
      expect((await errorsFor(form({ tokens: undefined }))).amount).toEqual([M.nothingChosen]);
      expect((await errorsFor(form({ tokens: '', amount: null, pack_id: '' }))).amount).toEqual([M.nothingChosen]);
    });

    it.each([
      ['abc'],
      [0],
      [-5],
      ['0'],
      ['1e3'],
      [true],
      ['99999999999999999999'],
      [1e21],
      ['0x10'],
      ['Infinity'],
      ['10.001'],
      [10.001],
      ['10.009'],
    ])('refuses the amount %p', async (amount) => {
      expect((await errorsFor(form({ tokens: undefined, amount }))).amount).toEqual([M.invalidAmount]);
    });

    it('refuses more decimals than the currency has, and takes trailing zeros', async () => {
      expect((await errorsFor(form({ tokens: undefined, amount: '1000.5', currency: 'JPY' }))).amount).toEqual([
        M.invalidAmount,
      ]);
      expect(
        (await agent.post('/api/deposit/checkout').send(form({ tokens: undefined, amount: '10.000' }))).status,
      ).toBe(200);
    });

    it('refuses token counts outside 0.1..2000 in steps of 0.1', async () => {
      for (const tokens of [0, 0.05, 2000.1, 'many', '1e2', ' 1e2 ', '0x10', 'Infinity', '2e3'])
        expect((await errorsFor(form({ tokens }))).tokens).toEqual([M.invalidAmount]);
    });

    it('refuses an amount that would buy more than 2,000 tokens instead of clamping it', async () => {
      const max = await quoteTokensIn(t.ctx, 2000, 'EUR');
      const justAbove = ((max.subtotalMinor + 100) / 100).toFixed(2);
      expect((await errorsFor(form({ tokens: undefined, amount: justAbove }))).amount).toEqual([M.invalidAmount]);
      // The price of exactly 2,000 tokens is still accepted.
      const exact = await agent
        .post('/api/deposit/checkout')
        .send(form({ tokens: undefined, amount: (max.subtotalMinor / 100).toFixed(2) }));
      expect(exact.status).toBe(200);
    });

    it('gives every checkout field message at once', async () => {
      const errors = await errorsFor({ tokens: 150 });
      expect(errors).toEqual({
        name: [M.firstName],
        surname: [M.lastName],
        phone: [M.phoneRequired],
        country: [M.countryRequired],
        city: [M.cityRequired],
        address: [M.addressRequired],
        postCode: [M.postCodeRequired],
        payment_method_id: [M.paymentMethod],
      });
    });

    it('checks the phone format, the payment method, the currency and the country', async () => {
      for (const phone of ['12-34-56-78', '1234567', '+1234567890123456'])
        expect((await errorsFor(form({ phone }))).phone).toEqual([M.phoneInvalid]);
      expect((await errorsFor(form({ payment_method_id: 999 }))).payment_method_id).toEqual([M.paymentMethod]);
      expect((await errorsFor(form({ currency: 'XXX' }))).currency).toEqual([M.invalidCurrency]);
      expect((await errorsFor(form({ country: 99999 }))).country).toEqual([M.countryRequired]);
    });

    it('refuses a total below the minimum top-up (min_top_up x currency value)', async () => {
      expect((await errorsFor(form({ tokens: 0.1 }))).amount).toEqual([M.minTopUp('€1.00')]);
      expect((await errorsFor(form({ tokens: 0.1, currency: 'JPY' }))).amount).toEqual([M.minTopUp('¥163')]);
      expect((await errorsFor(form({ tokens: undefined, amount: '0.05' }))).amount).toEqual([M.minTopUp('€1.00')]);
    });

    it('refuses a free pack without calling Stripe, and an unknown pack', async () => {
      const free = await t.ctx.db('packs').where({ price_cents: 0, hidden: false }).first();
      expect((await errorsFor(form({ pack_id: free.id }))).pack_id).toEqual([M.freePack]);
      expect((await errorsFor(form({ pack_id: 987654 }))).pack_id).toEqual([M.packUnavailable]);
    });
  });

  it('ignores prices sent by the client and charges the server quote (pack, then tokens, then amount)', async () => {
    const { agent } = await verifiedUser(t);
    const pack = await t.ctx
      .db('packs')
      .where('price_cents', '>', 0)
      .andWhere({ hidden: false })
      .orderBy('price_cents')
      .first();
    const tampered = {
      price: 0.01,
      total: 0.01,
      amount_total: 1,
      unit_amount: 1,
      subtotal: 0,
      vat: 0,
      tokens: 1999,
      amount: 1,
    };
    const res = await agent
      .post('/api/deposit/checkout')
      .send(form({ ...tampered, pack_id: pack.id }))
      .expect(200);
    const { quote } = await quotePackIn(t.ctx, pack.id, 'EUR');
    const deposit = await depositOf(res.body.payload.deposit_id);
    expect(deposit).toMatchObject({
      pack_id: pack.id,
      pack_title: pack.title,
      tokens_tenths: pack.credits_tenths,
      amount_minor: quote.totalMinor,
      net_minor: quote.subtotalMinor,
      vat_minor: quote.vatMinor,
    });
    expect(sessionOf(deposit.id).amount_total).toBe(quote.totalMinor);

    const byTokens = await agent
      .post('/api/deposit/checkout')
      .send(form({ tokens: 250, amount: 1, price: 0.01 }))
      .expect(200);
    expect((await depositOf(byTokens.body.payload.deposit_id)).tokens_tenths).toBe(2500);
  });

  it.each([
    ['EUR', 150],
    ['JPY', 150],
    ['KWD', 150],
    ['KWD', 150.5],
    ['KWD', 333.3],
    ['JPY', 482],
  ])('charges Stripe exactly the public quote in %s for %p tokens', async (currency, tokens) => {
    const { agent } = await verifiedUser(t);
    const res = await agent.post('/api/deposit/checkout').send(form({ currency, tokens })).expect(200);
    const quote = await quoteTokensIn(t.ctx, tokens, currency);
    const publicQuote = (await agent.get(`/api/token-pricing/quote?tokens=${tokens}&currency=${currency}`).expect(200))
      .body.payload;
    const session = sessionOf(res.body.payload.deposit_id);
    expect(session.currency).toBe(currency.toLowerCase());
    expect(session.amount_total).toBe(quote.totalMinor);
    expect(session.amount_total).toBe(toMinorUnits(publicQuote.total, currency));
    // Stripe takes three-decimal amounts only in multiples of 10: the quote already is one
    if (currency === 'KWD') expect(session.amount_total % 10).toBe(0);
    const deposit = await depositOf(res.body.payload.deposit_id);
    expect(deposit.amount_minor).toBe(session.amount_total);
    expect(deposit.tokens_tenths).toBe(quote.tenths);
  });

  it('buys as many 0.1 tokens as an amount pays for', async () => {
    const { agent } = await verifiedUser(t);
    const res = await agent
      .post('/api/deposit/checkout')
      .send(form({ tokens: undefined, amount: '10' }))
      .expect(200);
    const deposit = await depositOf(res.body.payload.deposit_id);
    const quote = await quoteTokensIn(t.ctx, deposit.tokens_tenths / 10, 'EUR');
    const oneMore = await quoteTokensIn(t.ctx, (deposit.tokens_tenths + 1) / 10, 'EUR');
    expect(quote.subtotalMinor).toBeLessThanOrEqual(1000);
    expect(oneMore.subtotalMinor).toBeGreaterThan(1000);
    expect(deposit.amount_minor).toBe(quote.totalMinor);
  });

  it('refuses guests (401) and unverified accounts (403)', async () => {
    const guest = await xsrfAgent(t);
    await guest.post('/api/deposit/checkout').send(form()).expect(401);
    const { email, password } = await createUser(t);
    const agent = await xsrfAgent(t);
    await signIn(agent, email, password).then((r) => expect(r.status).toBe(200));
    const res = await agent.post('/api/deposit/checkout').send(form()).expect(403);
    expect(res.body.code).toBe('email_not_verified');
  });

  it('refuses a checkout without the XSRF header', async () => {
    const { email, password } = await verifiedUser(t);
    const plain = t.agent();
    await signIn(plain, email, password).then((r) => expect(r.status).toBe(200));
    const res = await plain.post('/api/deposit/checkout').send(form());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
  });

  describe('GET /api/deposit/status/{id}', () => {
    it('answers the owner, 404 for another user or a random id, 401 for a guest', async () => {
      const owner = await verifiedUser(t);
      const other = await verifiedUser(t);
      const res = await owner.agent.post('/api/deposit/checkout').send(form()).expect(200);
      const id = res.body.payload.deposit_id as string;
      const mine = await owner.agent.get(`/api/deposit/status/${id}`).expect(200);
      expect(mine.body).toEqual({
        status: 'OK',
        payload: {
          id,
          status: 'Pending',
          tokens: 150,
          pack_id: null,
          amount: expect.any(Number),
          currency: 'EUR',
          created_at: expect.any(String),
        },
      });
      expectReplyMatchesSchema(routes.payments.depositStatus, mine.body);
      expect((await other.agent.get(`/api/deposit/status/${id}`).expect(404)).body.code).toBe('not_found');
      await owner.agent.get(`/api/deposit/status/${randomUUID()}`).expect(404);
      await owner.agent.get('/api/deposit/status/not-a-uuid').expect(404);
      await t.agent().get(`/api/deposit/status/${id}`).expect(401);
      await other.agent.get(`/api/deposit/redirect?order=${id}`).expect(404);
    });

    it('re-checks Stripe for an open deposit at most once per 30 s', async () => {
      const { agent, user } = await verifiedUser(t);
      const res = await agent.post('/api/deposit/checkout').send(form()).expect(200);
      const id = res.body.payload.deposit_id as string;
      const session = sessionOf(id);
      const retrieves = () => fake.requestLog.filter((r) => r === `GET /v1/checkout/sessions/${session.id}`).length;
      await agent.get(`/api/deposit/status/${id}`).expect(200);
      expect(retrieves()).toBe(1);
      fake.pay(session.id);
      // Paid meanwhile, but the next re-check is not due yet: still Pending, Stripe not asked.
      expect((await agent.get(`/api/deposit/status/${id}`).expect(200)).body.payload.status).toBe('Pending');
      expect(retrieves()).toBe(1);
      await t.ctx.redis.del(`pay:recheck:${id}`);
      expect((await agent.get(`/api/deposit/status/${id}`).expect(200)).body.payload.status).toBe('Success');
      expect(await balanceOf(t.ctx.db, user.id)).toBe(1500 + Number(user.balance_tenths));
    });
  });

  it('credits each of 20 deposits once when the webhook races the success page', async () => {
    const { agent, user } = await verifiedUser(t);
    const start = Number(user.balance_tenths);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        (
          await agent
            .post('/api/deposit/checkout')
            .send(form({ tokens: 10 + i }))
            .expect(200)
        ).body.payload.deposit_id,
      );
    const paid = ids.map((id) => fake.pay(sessionOf(id).id));
    await Promise.all(
      ids.flatMap((id, i) => [
        deliver(t.agent(), fake, fake.event('checkout.session.completed', paid[i])).expect(200),
        t
          .agent()
          .get(`/api/deposit/stripe-return?order=${id}`)
          .expect(303)
          .expect('Location', `/success-payment?order=${id}`),
        agent.get(`/api/deposit/status/${id}`).expect(200),
      ]),
    );
    for (const id of ids) expect((await depositOf(id)).status).toBe('Success');
    const purchases = (await ledgerRows(t.ctx.db, user.id)).filter((r) => r.kind === 'purchase');
    expect(purchases).toHaveLength(20);
    const expected = ids.reduce((sum, _id, i) => sum + (10 + i) * 10, 0);
    expect(await balanceOf(t.ctx.db, user.id)).toBe(start + expected);
  });

  describe('when Stripe is slow', () => {
    beforeAll(() => useStripeClient(t.ctx, createStripeClient(t.config, { timeoutMs: 300 })));
    afterAll(() => useStripeClient(t.ctx, createStripeClient(t.config)));

    it('retries a timed-out create with the same idempotency key: one session per deposit', async () => {
      const { agent } = await verifiedUser(t);
      const before = fake.createRequests;
      fake.delayCreates(1, 1000);
      const res = await agent.post('/api/deposit/checkout').send(form()).expect(200);
      expect(fake.createRequests - before).toBe(2);
      const session = sessionOf(res.body.payload.deposit_id);
      expect((await depositOf(res.body.payload.deposit_id)).stripe_session_id).toBe(session.id);
    });

    it('answers 503 Checkout failed when every attempt times out, still with at most one session', async () => {
      const { agent, user } = await verifiedUser(t);
      fake.delayCreates(3, 1000);
      const res = await agent.post('/api/deposit/checkout').send(form());
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'ERROR', code: 'service_unavailable', message: M.checkoutFailed });
      const [deposit] = await t.ctx.db('deposits').where({ user_id: user.id });
      expect(deposit.status).toBe('Error');
      expect(fake.sessionsForDeposit(deposit.id).length).toBeLessThanOrEqual(1);
    });
  });
});
