import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import * as repo from './deposits.repository';
import { balanceOf } from './test-support';

/** Checkout without STRIPE_SECRET_KEY: the built-in test checkout page and its three outcomes. */
describe('built-in test checkout', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const form = {
    name: 'Ada',
    surname: 'Lovelace',
    phone: '+44 7911 123456',
    country: 826,
    city: 'London',
    address: '1 Road',
    postCode: 'N1',
    payment_method_id: 1,
    tokens: 42.5,
  };

  async function startTestCheckout() {
    const owner = await verifiedUser(t);
    const res = await owner.agent.post('/api/deposit/checkout').send(form).expect(200);
    const url = new URL(res.body.redirect_url as string);
    return { ...owner, depositId: res.body.payload.deposit_id as string, url, token: url.searchParams.get('token')! };
  }

  it('sends the browser to a page that shows what is bought and the total, with three buttons', async () => {
    const { depositId, url } = await startTestCheckout();
    expect(url.searchParams.get('order')).toBe(depositId);
    const page = await t.agent().get(`${url.pathname}${url.search}`).expect(200).expect('Content-Type', /html/);
    expect(page.text).toContain('42.5 tokens');
    const deposit = (await repo.findDeposit(t.ctx.db, depositId))!;
    expect(deposit.provider).toBe('test');
    expect(page.text).toMatch(new RegExp(`data-field="total">€${(deposit.amount_minor / 100).toFixed(2)}<`));
    for (const outcome of ['paid', 'declined', 'cancelled'])
      expect(page.text).toContain(`name="outcome" value="${outcome}"`);
    expect(page.text.match(/<form method="post" action="\/api\/deposit\/test-checkout">/g)).toHaveLength(3);
  });

  it('paid: Success, tokens credited once, redirect to the success page', async () => {
    const { depositId, token, user } = await startTestCheckout();
    const post = () =>
      t.agent().post('/api/deposit/test-checkout').type('form').send({ order: depositId, token, outcome: 'paid' });
    const res = await post().expect(303);
    expect(res.headers.location).toBe(`/success-payment?order=${depositId}`);
    await post().expect(303);
    expect((await repo.findDeposit(t.ctx.db, depositId))!.status).toBe('Success');
    expect(await balanceOf(t.ctx.db, user.id)).toBe(Number(user.balance_tenths) + 425);
  });

  it('declined: Error, nothing credited, redirect to the fail page with the error', async () => {
    const { depositId, token, user } = await startTestCheckout();
    const res = await t
      .agent()
      .post('/api/deposit/test-checkout')
      .type('form')
      .send({ order: depositId, token, outcome: 'declined' })
      .expect(303);
    expect(res.headers.location).toBe(`/fail-payment?order=${depositId}&error=card_declined`);
    expect((await repo.findDeposit(t.ctx.db, depositId))!.status).toBe('Error');
    expect(await balanceOf(t.ctx.db, user.id)).toBe(Number(user.balance_tenths));
  });

  it('cancelled: Cancelled, nothing credited, redirect to the cancelled page', async () => {
    const { depositId, token, user, agent } = await startTestCheckout();
    const res = await t
      .agent()
      .post('/api/deposit/test-checkout')
      .type('form')
      .send({ order: depositId, token, outcome: 'cancelled' })
      .expect(303);
    expect(res.headers.location).toBe(`/cancelled-payment?order=${depositId}`);
    expect((await agent.get(`/api/deposit/status/${depositId}`).expect(200)).body.payload.status).toBe('Cancelled');
    // A terminal state never moves: paying afterwards changes nothing.
    await t
      .agent()
      .post('/api/deposit/test-checkout')
      .type('form')
      .send({ order: depositId, token, outcome: 'paid' })
      .expect(303)
      .expect('Location', `/cancelled-payment?order=${depositId}`);
    expect(await balanceOf(t.ctx.db, user.id)).toBe(Number(user.balance_tenths));
  });

  it('refuses a wrong token or another deposit id with 404, and an unknown outcome with 422', async () => {
    const { depositId, token } = await startTestCheckout();
    const other = await startTestCheckout();
    await t.agent().get(`/api/deposit/test-checkout?order=${depositId}&token=${other.token}`).expect(404);
    await t
      .agent()
      .post('/api/deposit/test-checkout')
      .type('form')
      .send({ order: depositId, token: other.token, outcome: 'paid' })
      .expect(404);
    await t
      .agent()
      .post('/api/deposit/test-checkout')
      .type('form')
      .send({ order: depositId, token, outcome: 'refund' })
      .expect(422);
    expect((await repo.findDeposit(t.ctx.db, depositId))!.status).toBe('Pending');
  });

  it('is refused in production without a Stripe key', async () => {
    // Production needs a real S3 endpoint and SMTP server: the first context's S3 stands in; no mail is sent.
    const prod = await createTestContext({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-like-secret-of-some-length',
      S3_ENDPOINT: t.ctx.storage.endpoint,
      SMTP_URL: 'smtp://127.0.0.1:1',
    });
    try {
      const { depositId, token } = await startTestCheckout();
      const res = await prod.agent().get(`/api/deposit/test-checkout?order=${depositId}&token=${token}`);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('service_unavailable');
    } finally {
      await prod.close();
    }
  });
});
