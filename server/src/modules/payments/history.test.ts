import { randomUUID } from 'node:crypto';
import { routes } from '@imagestudio/contracts';
import { pdfText } from '@imagestudio/runtime/testing';
import { createTestContext, type TestContext } from '../../test/harness';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import { verifiedUser } from '../../test/auth-helpers';
import { getSettings } from '../catalog';
import * as repo from './deposits.repository';
import { settleDeposit } from './fulfilment.service';
import { insertDeposit } from './test-support';
import { binaryParser } from '../../test/binary-parser';

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
      billing: {
        name: 'Ada <b>',
        surname: 'Lovelace',
        email: 'ada@example.test',
        phone: '07911 123456',
        phone_e164: '+447911123456',
        country_id: 826,
        country: 'United Kingdom',
        city: 'London',
        address: '1 <script>alert(1)</script> St',
        post_code: 'N1',
      },
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
    expectReplyMatchesSchema(routes.payments.history, first.body);
    const second = await agent.get('/api/user/payment-history?page=2').expect(200);
    expectReplyMatchesSchema(routes.payments.history, second.body);
    expect(second.body.payload.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.body.payload.items[0]).toMatchObject({
      status: 'Pending',
      pack: null,
      tokens: 1.2,
      has_receipt: false,
    });
    await t.agent().get('/api/user/payment-history').expect(401);
  });

  /** The receipt document's rows as label -> value. */
  const rowsOf = (payload: { rows: { key: string; label: string; value: string }[] }) =>
    Object.fromEntries(payload.rows.map((r) => [r.key, `${r.label} = ${r.value}`]));

  it('gives the receipt with the company details, the billing data as entered, the VAT line and the total', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await paidDeposit(user.id);
    const res = await agent
      .get(`/api/user/payment-history/${deposit.id}/receipt`)
      .set('Accept', 'application/json')
      .expect(200);
    expectReplyMatchesSchema(routes.payments.receipt, res.body);
    const doc = res.body.payload;
    const settings = await getSettings(t.ctx);
    expect(doc.seller.lines).toEqual(
      expect.arrayContaining([
        settings.company_name,
        `Reg. no. ${settings.company_reg_number}`,
        settings.support_email,
      ]),
    );
    // Customer input comes back as entered: whoever draws it escapes it (React does).
    expect(doc.buyer.lines).toEqual([
      'Ada <b> Lovelace',
      'ada@example.test',
      '+447911123456',
      '1 <script>alert(1)</script> St',
      'N1 London',
      'United Kingdom',
    ]);
    expect(rowsOf(doc)).toMatchObject({
      subtotal: 'Subtotal = €10.00',
      vat: 'VAT 19% (EUR) = €1.90',
      total: 'Total (EUR) = €11.90',
    });
    expect(doc.invoice).toEqual({ label: 'Invoice no.', value: expect.stringMatching(/^INV-\d{4}-\d{6}$/) });
    expect(doc.title).toBe('Receipt');
  });

  it('sends a browser opening the receipt address (older emails) to the receipt page', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await paidDeposit(user.id);
    const res = await agent
      .get(`/api/user/payment-history/${deposit.id}/receipt`)
      .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
      .expect(302);
    expect(res.headers.location).toBe(`/account/payments/${deposit.id}/receipt`);
  });

  it('gives a PDF invoice with the seller, the numbered invoice, the VAT line and the total, in German too', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await paidDeposit(user.id);
    const invoice = (await repo.findDeposit(t.ctx.db, deposit.id))!.invoice_number!;
    const en = await agent
      .get(`/api/user/payment-history/${deposit.id}/invoice.pdf`)
      .buffer(true)
      .parse(binaryParser)
      .expect(200)
      .expect('Content-Type', 'application/pdf');
    expect(en.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice}.pdf"`);
    const text = pdfText(en.body as Buffer);
    const settings = await getSettings(t.ctx);
    for (const line of [`Invoice no.: ${invoice}`, settings.company_name, 'Ada <b> Lovelace', 'Billed to'])
      expect(text).toContain(line);
    expect(text).toMatch(/VAT 19% \(EUR\)\s+€1\.90/);
    expect(text).toMatch(/Total \(EUR\)\s+€11\.90/);

    const de = await agent
      .get(`/api/user/payment-history/${deposit.id}/invoice.pdf?lang_id=de`)
      .buffer(true)
      .parse(binaryParser)
      .expect(200);
    const german = pdfText(de.body as Buffer);
    expect(german).toContain(`Rechnungsnummer: ${invoice}`);
    expect(german).toMatch(/MwSt\. 19 % \(EUR\)\s+1,90\s€/);
    expect(german).toContain('Rechnungsempfänger');
  });

  it('numbers paid deposits INV-<year>-<6 digits> in one gapless sequence, and never numbers unpaid ones', async () => {
    const { user } = await verifiedUser(t);
    const paid = await Promise.all([1, 2, 3, 4, 5].map(() => paidDeposit(user.id)));
    const unpaid = await insertDeposit(t.ctx.db, user.id);
    await settleDeposit(t.ctx.db, unpaid.id, { kind: 'cancelled' });
    const numbers = await Promise.all(paid.map(async (d) => (await repo.findDeposit(t.ctx.db, d.id))!.invoice_number!));
    const year = new Date().getUTCFullYear();
    for (const n of numbers) expect(n).toMatch(new RegExp(`^INV-${year}-\\d{6}$`));
    const sequence = numbers.map((n) => Number(n.slice(-6))).sort((a, b) => a - b);
    // other tests pay deposits at the same time, so the five are distinct, not necessarily adjacent
    expect(new Set(sequence).size).toBe(5);
    // gapless: the numbers given this year are exactly 1..N (one statement, one consistent snapshot)
    const { rows } = await t.ctx.db.raw(
      `select count(*)::int as numbered, count(distinct invoice_number)::int as distinct_numbers,
              max(substring(invoice_number from 10)::int) as highest,
              (select sum(last_number)::int from invoice_sequences where year = ?) as issued
         from deposits where invoice_number like ?`,
      [year, `INV-${year}-%`],
    );
    expect(rows[0].distinct_numbers).toBe(rows[0].numbered);
    expect(rows[0].highest).toBe(rows[0].numbered);
    expect(rows[0].issued).toBe(rows[0].numbered);
    expect((await repo.findDeposit(t.ctx.db, unpaid.id))!.invoice_number).toBeNull();
    // settling a paid deposit again keeps its number
    await settleDeposit(t.ctx.db, paid[0]!.id, { kind: 'paid', amountMinor: 1190, currency: 'EUR' });
    expect((await repo.findDeposit(t.ctx.db, paid[0]!.id))!.invoice_number).toBe(numbers[0]);
  });

  it('gives the receipt in German for lang_id=de or Accept-Language: de', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await paidDeposit(user.id);
    for (const res of [
      await agent
        .get(`/api/user/payment-history/${deposit.id}/receipt?lang_id=de`)
        .set('Accept', 'application/json')
        .expect(200),
      await agent
        .get(`/api/user/payment-history/${deposit.id}/receipt`)
        .set('Accept', 'application/json')
        .set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.5')
        .expect(200),
    ]) {
      const doc = res.body.payload;
      expect(doc.lang).toBe('de');
      expect(doc.title).toBe('Rechnung');
      expect(rowsOf(doc).vat).toBe('MwSt. 19 % (EUR) = 1,90\u00a0€');
      expect(doc.invoice.label).toBe('Rechnungsnummer');
    }
  });

  it('shows a zero VAT with its currency, never a bare "0.00"', async () => {
    const { agent, user } = await verifiedUser(t);
    const deposit = await insertDeposit(t.ctx.db, user.id, {
      provider: 'test',
      net_minor: 1000,
      vat_minor: 0,
      amount_minor: 1000,
      vat_percent: '0',
    });
    await settleDeposit(t.ctx.db, deposit.id, { kind: 'paid', amountMinor: 1000, currency: 'EUR' });
    const res = await agent
      .get(`/api/user/payment-history/${deposit.id}/receipt`)
      .set('Accept', 'application/json')
      .expect(200);
    expect(rowsOf(res.body.payload).vat).toBe('VAT 0% (EUR) = €0.00');
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
    await other.agent.get(`/api/user/payment-history/${deposit.id}/invoice.pdf`).expect(404);
    await owner.agent.get(`/api/user/payment-history/${pending.id}/invoice.pdf`).expect(404);
    await t.agent().get(`/api/user/payment-history/${deposit.id}/invoice.pdf`).expect(401);
    expect((await repo.findDeposit(t.ctx.db, deposit.id))!.status).toBe('Success');
  });
});
