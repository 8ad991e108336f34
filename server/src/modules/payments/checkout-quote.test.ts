import { CHECKOUT_MESSAGES as M, formatPrice, type TopUpChoice } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { memoryCheckoutCatalog, type MemoryCatalogData } from '../../test/fakes';
import { priceTopUp, type QuoteInputs } from './checkout-quote';

/** The checkout's pricing decisions on a catalog held in memory (seeded tiers: 0.10 EUR a token up to 99.9). */
const PACKS = [
  { id: 1, title: 'Starter', price_cents: 1000, credits_tenths: 1200 },
  { id: 2, title: 'Welcome gift', price_cents: 0, credits_tenths: 50 },
];

function inputs(choice: TopUpChoice, extra: Partial<QuoteInputs> & { data?: MemoryCatalogData } = {}): QuoteInputs {
  const { data, ...rest } = extra;
  return {
    choice,
    currency: { code: 'EUR', value: '1' },
    minTopUp: 5,
    catalog: memoryCheckoutCatalog({ packs: PACKS, currencies: { EUR: '1', JPY: '160' }, ...data }),
    viaStripe: true,
    ...rest,
  };
}

/** The field errors of the 422 that `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<Record<string, string[]> | undefined> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(422);
  return (err as AppError).errors;
}

describe('priceTopUp: packs', () => {
  it('charges a pack its own price, not its tokens at the tier price', async () => {
    const { quote, pack } = await priceTopUp(inputs({ kind: 'pack', packId: 1 }));
    expect(pack?.id).toBe(1);
    expect(quote.tenths).toBe(1200);
    expect(quote.totalMinor).toBe(1000);
  });

  it('adds VAT on top of the pack price', async () => {
    const { quote } = await priceTopUp(inputs({ kind: 'pack', packId: 1 }, { data: { packs: PACKS, vatPercent: 20 } }));
    expect(quote.subtotalMinor).toBe(1000);
    expect(quote.totalMinor).toBe(1200);
  });

  it('refuses an unknown pack and a free one', async () => {
    expect(await refusal(priceTopUp(inputs({ kind: 'pack', packId: 99 })))).toEqual({ pack_id: [M.packUnavailable] });
    expect(await refusal(priceTopUp(inputs({ kind: 'pack', packId: 2 })))).toEqual({ pack_id: [M.freePack] });
  });
});

describe('priceTopUp: tokens and amounts', () => {
  it('prices tokens at the tier their amount falls in', async () => {
    expect((await priceTopUp(inputs({ kind: 'tokens', tokens: 60 }))).quote.totalMinor).toBe(600);
    expect((await priceTopUp(inputs({ kind: 'tokens', tokens: 100 }))).quote.totalMinor).toBe(900);
  });

  it('buys with an amount the most tokens it pays for, at the cheaper tier once it reaches one', async () => {
    // 5.00 EUR stays in the first tier (0.10 a token); 12.34 EUR reaches the second (0.09): 137.1 tokens, whose
    // price is what is charged, never more than the amount typed.
    expect((await priceTopUp(inputs({ kind: 'amount', amount: '5.00' }))).quote.tenths).toBe(500);
    const { quote } = await priceTopUp(inputs({ kind: 'amount', amount: '12.34' }));
    expect(quote.tenths).toBe(1371);
    expect(quote.totalMinor).toBeLessThanOrEqual(1234);
    expect(quote.totalMinor).toBeGreaterThan(1234 - 9);
  });

  it('refuses more digits than the currency has, but not trailing zeros', async () => {
    expect(await refusal(priceTopUp(inputs({ kind: 'amount', amount: '10.001' })))).toEqual({
      amount: [M.invalidAmount],
    });
    expect((await priceTopUp(inputs({ kind: 'amount', amount: '10.000' }))).quote.totalMinor).toBe(1000);
    const yen = { code: 'JPY', value: '160' };
    expect(await refusal(priceTopUp(inputs({ kind: 'amount', amount: '1000.5' }, { currency: yen })))).toEqual({
      amount: [M.invalidAmount],
    });
    expect((await priceTopUp(inputs({ kind: 'amount', amount: '1000' }, { currency: yen }))).quote.totalMinor).toBe(
      1000,
    );
  });

  it('refuses an amount beyond the price of the largest token amount instead of charging that amount', async () => {
    // 2000 tokens at 0.07 EUR: 140.00 EUR buys the most there is; 140.01 would buy nothing more.
    expect((await priceTopUp(inputs({ kind: 'amount', amount: '140.00' }))).quote.tenths).toBe(20000);
    expect(await refusal(priceTopUp(inputs({ kind: 'amount', amount: '140.01' })))).toEqual({
      amount: [M.invalidAmount],
    });
  });
});

describe('priceTopUp: minimums', () => {
  const minimum = (eur: number, code = 'EUR') => M.minTopUp(formatPrice(eur, code));

  it('refuses a total below the minimum top-up, converted into the chosen currency', async () => {
    expect(await refusal(priceTopUp(inputs({ kind: 'tokens', tokens: 49.9 })))).toEqual({ amount: [minimum(5)] });
    expect((await priceTopUp(inputs({ kind: 'tokens', tokens: 50 }))).quote.totalMinor).toBe(500);
    const yen = { code: 'JPY', value: '160' };
    expect(await refusal(priceTopUp(inputs({ kind: 'amount', amount: '799' }, { currency: yen })))).toEqual({
      amount: [minimum(800, 'JPY')],
    });
  });

  it('answers the minimum top-up for an amount too small to buy a tenth of a token', async () => {
    expect(await refusal(priceTopUp(inputs({ kind: 'amount', amount: '0.00' })))).toEqual({ amount: [minimum(5)] });
  });

  it("applies Stripe's minimum charge only to payments that go through Stripe", async () => {
    const tiny = { minTopUp: 0.1 };
    const stripe = await refusal(priceTopUp(inputs({ kind: 'tokens', tokens: 2 }, tiny)));
    expect(stripe).toEqual({ amount: [M.belowCardMinimum(formatPrice(0.5, 'EUR'))] });
    const testCheckout = await priceTopUp(inputs({ kind: 'tokens', tokens: 2 }, { ...tiny, viaStripe: false }));
    expect(testCheckout.quote.totalMinor).toBe(20);
  });
});
