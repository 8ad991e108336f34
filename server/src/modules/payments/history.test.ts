import { randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { getSettings } from '../catalog/settings.service';
import * as repo from './deposits.repository';
import { settleDeposit } from './fulfilment.service';
import { insertDeposit } from './test-support';

describe('payment history and receipts', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  /** A successful deposit with VAT (19% on 10.00 EUR) and billing data that needs escaping. */
  async function paidDeposit(userId: string) {
    const deposit = await insertDeposit(t.ctx.db, userId, {
      provider: 'test',
      net_minor: 1000,
      vat_minor: 190,
      amount_minor: 1190,
      vat_percent: '19',
      pack_title: 'Starter',
      pack_id: null,
      billing: { name: 'Ada <b>', surname: 'Lovelace', email: 'ada@example.test', phone: '+44 1234 5678', country_id: 826, country: 'United Kingdom', city: 'London', address: '1 <script>alert(1)</script> St', post_code: 'N1' },
    });
    await settleDeposit(t.ctx.db, deposit.id, { kind: 'paid', amountMinor: 1190, currency: 'EUR' });
    return deposit;
  }

  it('lists the user own deposits newest first, 20 a page', async () => {
    const { agent, user } = await verifiedUser(t);
    const other = await verifiedUser(t);
    await insertDeposit(t.ctx.db, other.user.id);
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push((await insertDeposit(t.ctx.db, user.id, { tokens_tenths: 10 + i })).id);
    await paidDeposit(user.id);

    const first = await agent.get('/api/user/payment-history').expect(200);
    expect(first.body.payload).toMatchObject({ page: 1, per_page: 20, total: 23, last_page: 2 });
    expect(first.body.payload.items).toHaveLength(20);
    expect(first.body.payload.items[0]).toEqual({
      id: expect.any(String),
      date: expect.any(String),
      status: 'Success',
      pack: 'Starter',
      tokens: 10,
      amount: 11.9,
      currency: 'EUR',
      method: 'Credit/Debit card',
      has_receipt: true,
    });
    const second = await agent.get('/api/user/payment-history?page=2').expect(200);
    expect(second.body.payload.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.body.payload.items[0]).toMatchObject({ status: 'Pending', pack: null, tokens: 1.2, has_receipt: false });
    await t.agent().get('/api/user/payment-history').expect(401);
  });

  it('renders a receipt with the company details, the billing data escaped, the VAT line and the total', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await paidDeposit(user.id);
    const res = await agent.get(`/api/user/payment-history/${deposit.id}/receipt`).expect(200).expect('Content-Type', /html/);
    const settings = await getSettings(t.ctx);
    for (const text of [settings.company_name, settings.company_reg_number, settings.support_email]) expect(res.text).toContain(text);
    expect(res.text).toContain('Ada &lt;b&gt; Lovelace');
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toMatch(/<tr data-line="subtotal"><td>Subtotal<\/td><td[^>]*>€10\.00<\/td><\/tr>/);
    expect(res.text).toMatch(/<tr data-line="vat"><td>VAT \(19%\)<\/td><td[^>]*>€1\.90<\/td><\/tr>/);
    expect(res.text).toMatch(/<tr data-line="total"><th[^>]*>Total<\/th><th[^>]*>€11\.90<\/th><\/tr>/);
  });

  it('answers 404 for another user receipt, an unpaid deposit and unknown ids (IDOR)', async () => {
    const owner = await verifiedUser(t);
    const other = await verifiedUser(t);
    const deposit = await paidDeposit(owner.user.id);
    const pending = await insertDeposit(t.ctx.db, owner.user.id);
    await other.agent.get(`/api/user/payment-history/${deposit.id}/receipt`).expect(404);
    await other.agent.get(`/api/deposit/status/${deposit.id}`).expect(404);
    await owner.agent.get(`/api/user/payment-history/${pending.id}/receipt`).expect(404);
    await owner.agent.get(`/api/user/payment-history/${randomUUID()}/receipt`).expect(404);
    await owner.agent.get('/api/user/payment-history/1%20or%201=1/receipt').expect(404);
    await t.agent().get(`/api/user/payment-history/${deposit.id}/receipt`).expect(401);
    expect((await repo.findDeposit(t.ctx.db, deposit.id))!.status).toBe('Success');
  });
});
