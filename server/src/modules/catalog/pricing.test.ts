import { convertFromBase, quotePack, quoteTokens, toMinorUnits } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { quotePackIn, quoteTokensIn, tenthsForAmountIn } from './pricing.service';

describe('packs and token pricing', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('lists a free pack and paid packs whose price per token falls', async () => {
    const packs = (await t.agent().get('/api/packs').expect(200)).body.payload as Array<{
      id: number;
      title: string;
      description: string;
      price: number;
      credits: number;
    }>;
    for (const p of packs)
      expect(Object.keys(p).sort()).toEqual(['credits', 'description', 'id', 'price', 'saving', 'title']);
    expect(packs.find((p) => p.price === 0)).toMatchObject({ credits: 10 });
    const paid = packs.filter((p) => p.price > 0);
    expect(paid.length).toBeGreaterThanOrEqual(3);
    const perToken = paid.sort((a, b) => a.credits - b.credits).map((p) => p.price / p.credits);
    for (let i = 1; i < perToken.length; i++) expect(perToken[i]).toBeLessThan(perToken[i - 1]!);
  });

  it('converts pack prices and rounds them to the currency minor unit', async () => {
    const eur = (await t.agent().get('/api/packs?currency=EUR').expect(200)).body.payload as Array<{
      id: number;
      price: number;
    }>;
    const jpy = (await t.agent().get('/api/packs?currency=JPY').expect(200)).body.payload as typeof eur;
    const kwd = (await t.agent().get('/api/packs?currency=kwd').expect(200)).body.payload as typeof eur;
    const starter = eur.find((p) => p.price === 8.5)!;
    expect(jpy.find((p) => p.id === starter.id)!.price).toBe(1381); // 8.50 x 162.5 = 1381.25
    expect(kwd.find((p) => p.id === starter.id)!.price).toBe(2.82); // 8.50 x 0.3315 = 2.81775, to the 0.010 charge step
    for (const p of jpy) expect(Number.isInteger(p.price)).toBe(true);
  });

  it.each(['EUR', 'JPY', 'KWD'])(
    'never sells a seeded pack dearer than its tokens as a custom amount, and says what it saves (%s)',
    async (currency) => {
      const packs = (await t.agent().get(`/api/packs?currency=${currency}`).expect(200)).body.payload as Array<{
        title: string;
        price: number;
        credits: number;
        saving: number;
      }>;
      const seeded = packs.filter((p) => ['Starter', 'Creator', 'Studio'].includes(p.title));
      expect(seeded).toHaveLength(3);
      for (const pack of seeded) {
        const custom = (
          await t.agent().get(`/api/token-pricing/quote?tokens=${pack.credits}&currency=${currency}`).expect(200)
        ).body.payload;
        expect(pack.price).toBeLessThan(custom.subtotal);
        expect(toMinorUnits(pack.saving, currency)).toBe(
          toMinorUnits(custom.subtotal, currency) - toMinorUnits(pack.price, currency),
        );
      }
      expect(packs.find((p) => p.price === 0)?.saving).toBe(0);
    },
  );

  it('sends the tiers in the requested currency, falling with volume, the last one open ended', async () => {
    const res = await t.agent().get('/api/token-pricing?currency=JPY').expect(200);
    expect(res.body.payload.currency).toBe('JPY');
    const tiers = res.body.payload.priceTiers as Array<{ min: number; max: number | null; price: number }>;
    expect(tiers[0]).toMatchObject({ min: 0.1 });
    expect(tiers.at(-1)?.max).toBeNull();
    for (let i = 1; i < tiers.length; i++) {
      expect(tiers[i]!.price).toBeLessThan(tiers[i - 1]!.price);
      expect(Math.round(tiers[i]!.min * 10)).toBe(Math.round(tiers[i - 1]!.max! * 10) + 1);
    }
    expect(tiers.map((x) => x.price)).toEqual([16.25, 14.625, 13, 11.375]);
  });

  it.each([
    [
      'EUR',
      '0.1',
      { tokens: 0.1, pricePerToken: 0.1, subtotal: 0.01, vatPercent: 0, vat: 0, total: 0.01, currency: 'EUR' },
    ],
    ['EUR', '2000', { tokens: 2000, pricePerToken: 0.07, subtotal: 140, total: 140, currency: 'EUR' }],
    ['JPY', '100', { tokens: 100, pricePerToken: 14.63, subtotal: 1463, total: 1463, currency: 'JPY' }],
    ['KWD', '1999.9', { tokens: 1999.9, pricePerToken: 0.0232, subtotal: 46.4, total: 46.4, currency: 'KWD' }],
    ['EUR', '99.9', { tokens: 99.9, subtotal: 9, currency: 'EUR' }],
    ['EUR', '482', { tokens: 482, subtotal: 40, currency: 'EUR' }],
    ['EUR', '519', { tokens: 519, subtotal: 41.52, currency: 'EUR' }],
  ])('quotes %s %s tokens', async (currency, tokens, expected) => {
    const res = await t.agent().get(`/api/token-pricing/quote?tokens=${tokens}&currency=${currency}`).expect(200);
    expect(res.body.payload).toMatchObject(expected);
    expect(Object.keys(res.body.payload).sort()).toEqual([
      'currency',
      'pricePerToken',
      'subtotal',
      'tokens',
      'total',
      'vat',
      'vatPercent',
    ]);
  });

  it.each(['0', '0.05', '0.15', '2000.1', '-1', 'abc', '1e3', ''])(
    'refuses tokens=%s with a 422 on tokens',
    async (tokens) => {
      const res = await t.agent().get(`/api/token-pricing/quote?tokens=${tokens}`).expect(422);
      expect(res.body).toMatchObject({
        status: 'ERROR',
        code: 'validation_failed',
        errors: { tokens: [expect.stringContaining('0.1 and 2000')] },
      });
    },
  );

  it.each([
    '/api/token-pricing/quote?tokens=5&currency=XYZ',
    '/api/token-pricing?currency=XYZ',
    '/api/packs?currency=XYZ',
  ])('refuses an unknown currency on %s', async (path) => {
    const res = await t.agent().get(path).expect(422);
    expect(res.body).toMatchObject({
      message: 'Invalid currency code',
      errors: { currency: ['Invalid currency code'] },
    });
  });

  it('falls back to the default currency on non-pricing calls', async () => {
    const res = await t.agent().get('/api/settings?currency=XYZ').expect(200);
    expect(res.body.status).toBe('OK');
  });

  it('quotes through the service exactly what the shared function computes (what checkout charges)', async () => {
    for (const currency of ['EUR', 'JPY', 'KWD']) {
      const tiers = (await t.agent().get(`/api/token-pricing?currency=${currency}`)).body.payload.priceTiers;
      for (const tokens of [0.1, 1, 99.9, 100, 499.9, 500, 999.9, 1000, 1999.9, 2000]) {
        const server = await quoteTokensIn(t.ctx, tokens, currency);
        expect(server).toEqual(quoteTokens({ tokens, tiers, currency, vatPercent: 0 }));
        const api = (await t.agent().get(`/api/token-pricing/quote?tokens=${tokens}&currency=${currency}`)).body
          .payload;
        expect(api.total).toBe(server.total);
      }
    }
    const packs = (await t.agent().get('/api/packs?currency=KWD')).body.payload as Array<{
      id: number;
      price: number;
      credits: number;
    }>;
    const paid = packs.find((p) => p.price > 0)!;
    const { quote } = await quotePackIn(t.ctx, paid.id, 'KWD');
    expect(quote.subtotal).toBe(paid.price);
    expect(quote).toEqual(
      quotePack({ priceMinor: quote.subtotalMinor, credits: paid.credits, currency: 'KWD', vatPercent: 0 }),
    );
    await expect(quotePackIn(t.ctx, 987654, 'EUR')).rejects.toMatchObject({ status: 404 });
    expect(convertFromBase(999, '0.3315', 'KWD')).toBe(3310);
  });

  it('turns an amount into the most tokens it pays for', async () => {
    expect(await tenthsForAmountIn(t.ctx, 1000, 'EUR')).toBe(1111); // 111.1 x 0.09 = 9.999 -> 10.00
    expect(await tenthsForAmountIn(t.ctx, 0, 'EUR')).toBe(0);
    expect(await tenthsForAmountIn(t.ctx, 4000, 'EUR')).toBe(5000); // 500 tokens cost 40.00, 500.1 cost 40.01
  });
});
