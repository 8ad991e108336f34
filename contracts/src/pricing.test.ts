import {
  convertTiers,
  DEFAULT_PRICE_TIERS,
  isValidTokenAmount,
  minimumPurchaseTenths,
  packSavingMinor,
  parseMoneyAmount,
  parseTokenAmount,
  perTokenDecimals,
  quotePack,
  quoteTokens,
  tenthsForAmount,
  validateTiers,
  type PriceTier,
} from './pricing';
import { convertFromBase } from './money';

const RATES = { EUR: '1', JPY: '162.5', KWD: '0.3315' } as const;
const tiersIn = (code: keyof typeof RATES): PriceTier[] => convertTiers([...DEFAULT_PRICE_TIERS], RATES[code], code);
const subtotal = (code: keyof typeof RATES, tokens: number) =>
  quoteTokens({ tokens, tiers: tiersIn(code), currency: code, vatPercent: 0 }).subtotal;

// Expected values worked out by hand from the rules at the top of pricing.ts.
const AMOUNTS = [0.1, 1, 99.9, 100, 499.9, 500, 999.9, 1000, 1999.9, 2000];
const EXPECTED: Record<keyof typeof RATES, number[]> = {
  // 0.10 / 0.09 / 0.08 / 0.07 EUR per token; the last amount of a tier costs what the next tier's
  // first does when that is cheaper (99.9 x 0.10 = 9.99 > 100 x 0.09 = 9.00)
  EUR: [0.01, 0.1, 9, 9, 40, 40, 70, 70, 139.99, 140],
  // 16.25 / 14.625 / 13 / 11.375 JPY per token; 100 x 14.625 = 1462.5 rounds up
  JPY: [2, 16, 1463, 1463, 6500, 6500, 11375, 11375, 22749, 22750],
  // 0.0332 / 0.0298 / 0.0265 / 0.0232 KWD per token (4 decimals), totals to the 0.010 charge step
  // (0.1 x 0.0332 = 0.00332 rounds to 0; 1999.9 x 0.0232 = 46.39768 rounds to 46.400)
  KWD: [0, 0.03, 2.98, 2.98, 13.25, 13.25, 23.2, 23.2, 46.4, 46.4],
};

describe('token price tiers', () => {
  it('converts the EUR tiers into a currency with 4-decimal unit prices', () => {
    expect(tiersIn('JPY').map((t) => t.price)).toEqual([16.25, 14.625, 13, 11.375]);
    expect(tiersIn('KWD').map((t) => t.price)).toEqual([0.0332, 0.0298, 0.0265, 0.0232]);
    expect(tiersIn('EUR')[3]).toEqual({ min: 1000, max: null, price: 0.07 });
  });

  it.each(Object.keys(EXPECTED) as Array<keyof typeof RATES>)(
    'prices every tier boundary and 0.1, 1, 1999.9, 2000 tokens in %s',
    (code) => {
      expect(AMOUNTS.map((n) => subtotal(code, n))).toEqual(EXPECTED[code]);
    },
  );

  it('adds VAT rounded once to the charge step and reports the price per token actually paid', () => {
    expect(quoteTokens({ tokens: 99.9, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 19 })).toMatchObject({
      tokens: 99.9,
      pricePerToken: 0.0901,
      subtotal: 9,
      vatPercent: 19,
      vat: 1.71,
      total: 10.71,
      currency: 'EUR',
      subtotalMinor: 900,
      vatMinor: 171,
      totalMinor: 1071,
      tenths: 999,
      decimals: 2,
    });
    expect(quoteTokens({ tokens: 100, tiers: tiersIn('JPY'), currency: 'JPY', vatPercent: '7.7' })).toMatchObject({
      pricePerToken: 14.63,
      subtotal: 1463,
      vat: 113,
      total: 1576,
      totalMinor: 1576,
    });
    // 2.980 x 19 % = 0.5662 -> 0.570: every KWD amount is a multiple of 0.010, what a card can be charged
    expect(quoteTokens({ tokens: 100, tiers: tiersIn('KWD'), currency: 'KWD', vatPercent: 19 })).toMatchObject({
      pricePerToken: 0.0298,
      subtotal: 2.98,
      vat: 0.57,
      total: 3.55,
      totalMinor: 3550,
    });
    expect(quoteTokens({ tokens: 150.5, tiers: tiersIn('KWD'), currency: 'KWD', vatPercent: 0 }).totalMinor).toBe(4480); // 4.4849
  });

  it.each([
    ['EUR', 0],
    ['EUR', 19],
    ['JPY', '7.7'],
    ['KWD', 16],
  ] as const)('never charges less for more tokens (%s, VAT %s %%)', (code, vatPercent) => {
    const tiers = tiersIn(code);
    let previous = 0;
    for (let tenths = 1; tenths <= 20000; tenths++) {
      const total = quoteTokens({ tokens: tenths / 10, tiers, currency: code, vatPercent }).totalMinor;
      if (total < previous) throw new Error(`${code}: ${tenths / 10} tokens cost ${total} < ${previous}`);
      previous = total;
    }
    expect(previous).toBeGreaterThan(0);
  });

  it('prices the amounts that used to cost less for more tokens', () => {
    expect(subtotal('EUR', 482)).toBe(40);
    expect(subtotal('EUR', 519)).toBe(41.52);
  });

  it('shows per-token prices with enough decimals to tell the tiers apart, and yen without fractions', () => {
    expect(perTokenDecimals(tiersIn('EUR'), 'EUR')).toBe(2);
    expect(perTokenDecimals(tiersIn('KWD'), 'KWD')).toBe(3);
    expect(perTokenDecimals(tiersIn('JPY'), 'JPY')).toBe(0);
    expect(perTokenDecimals(convertTiers([...DEFAULT_PRICE_TIERS], '0.0105', 'BHD'), 'BHD')).toBe(4); // 0.0011, 0.0009, 0.0008, 0.0007
    expect(
      perTokenDecimals(
        convertTiers(
          [
            { min: 0.1, max: 9.9, price: '0.101' },
            { min: 10, max: null, price: '0.1' },
          ],
          '1',
          'USD',
        ),
        'USD',
      ),
    ).toBe(3);
  });

  it('finds the smallest purchase that reaches the minimum top-up', () => {
    // EUR 1.00 minimum: 10 tokens cost 1.00; with 19 % VAT 8.4 tokens cost 0.84 + 0.16 = 1.00, 8.3 cost 0.83 + 0.16 = 0.99
    expect(minimumPurchaseTenths({ minTotalMinor: 100, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 0 })).toBe(
      100,
    );
    expect(minimumPurchaseTenths({ minTotalMinor: 100, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 19 })).toBe(
      84,
    );
    // JPY 163 minimum: 10 tokens cost 163 (162.5 rounds up), 9.9 cost 161
    expect(minimumPurchaseTenths({ minTotalMinor: 163, tiers: tiersIn('JPY'), currency: 'JPY', vatPercent: 0 })).toBe(
      100,
    );
    expect(minimumPurchaseTenths({ minTotalMinor: 0, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 0 })).toBe(1);
    expect(
      minimumPurchaseTenths({ minTotalMinor: 10_000_000, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 0 }),
    ).toBe(20000);
  });

  it('tells what a pack saves against the same tokens as a custom amount', () => {
    expect(packSavingMinor({ priceMinor: 850, credits: 100, tiers: tiersIn('EUR'), currency: 'EUR' })).toBe(50);
    expect(packSavingMinor({ priceMinor: 999, credits: 100, tiers: tiersIn('EUR'), currency: 'EUR' })).toBe(0);
    expect(packSavingMinor({ priceMinor: 0, credits: 10, tiers: tiersIn('EUR'), currency: 'EUR' })).toBe(0);
    expect(packSavingMinor({ priceMinor: 100, credits: 5000, tiers: tiersIn('EUR'), currency: 'EUR' })).toBe(0);
  });

  it('refuses amounts outside 0.1..2000 or not in steps of 0.1', () => {
    for (const bad of [0, 0.05, 0.15, -1, 2000.1, 2001, Number.NaN, Infinity])
      expect(isValidTokenAmount(bad)).toBe(false);
    for (const good of [0.1, 0.3, 1, 12.5, 2000]) expect(isValidTokenAmount(good)).toBe(true);
    expect(() => quoteTokens({ tokens: 0.15, tiers: tiersIn('EUR'), currency: 'EUR', vatPercent: 0 })).toThrow(
      RangeError,
    );
    expect(() => quoteTokens({ tokens: 5, tiers: [], currency: 'EUR', vatPercent: 0 })).toThrow(/no price tier/);
  });

  it('finds the most tokens an amount buys, across the downward jumps at tier starts', () => {
    for (const code of ['EUR', 'JPY', 'KWD'] as const) {
      const tiers = tiersIn(code);
      const costs = Array.from(
        { length: 20000 },
        (_, i) => quoteTokens({ tokens: (i + 1) / 10, tiers, currency: code, vatPercent: 0 }).subtotalMinor,
      );
      for (const amountMinor of [0, 1, 3, 17, 999, 1000, 4500, 9000, 12345, 30000, 10_000_000]) {
        let brute = 0;
        costs.forEach((c, i) => {
          if (c <= amountMinor) brute = i + 1;
        });
        expect([code, amountMinor, tenthsForAmount({ amountMinor, tiers, currency: code })]).toEqual([
          code,
          amountMinor,
          brute,
        ]);
      }
    }
  });

  it('quotes a pack from its converted price with VAT', () => {
    const priceMinor = convertFromBase(3999, RATES.KWD, 'KWD'); // 39.99 EUR -> 13.256685 KWD
    expect(priceMinor).toBe(13260);
    expect(quotePack({ priceMinor, credits: 500, currency: 'KWD', vatPercent: 10 })).toMatchObject({
      tokens: 500,
      subtotal: 13.26,
      vat: 1.33,
      total: 14.59,
      pricePerToken: 0.0265,
    });
    expect(quotePack({ priceMinor: 0, credits: 10, currency: 'EUR', vatPercent: 19 })).toMatchObject({
      total: 0,
      pricePerToken: 0,
    });
  });

  it('accepts the seeded tiers and names what is wrong with a bad table', () => {
    expect(validateTiers([...DEFAULT_PRICE_TIERS])).toEqual([]);
    expect(validateTiers([])).toEqual(['at least one tier is required']);
    const problems = validateTiers([
      { min: 1, max: 10, price: '0.1' },
      { min: 10.5, max: 20, price: '0.2' },
      { min: 20.1, max: 30, price: '0.1' },
    ]);
    expect(problems).toEqual([
      'the first tier must start at 0.1',
      'tier 2 must start 0.1 after tier 1 ends',
      'tier 2 must be cheaper per token than tier 1',
      'the last tier must be open ended (max null)',
    ]);
  });
});

describe('the one parser of customer amounts', () => {
  it('reads token amounts as plain decimals of 0.1..2000 in steps of 0.1 only', () => {
    expect(parseTokenAmount('250')).toBe(250);
    expect(parseTokenAmount(' 0.1 ')).toBe(0.1);
    expect(parseTokenAmount(2000)).toBe(2000);
    for (const bad of [
      '1e2',
      '0x10',
      'Infinity',
      '-1',
      '2000.1',
      '0.05',
      '',
      '1.',
      '.5',
      null,
      undefined,
      true,
      1e21,
      Number.NaN,
    ]) {
      expect(parseTokenAmount(bad)).toBeNull();
    }
  });

  it('keeps money amounts as plain decimal text and refuses exponents and huge numbers', () => {
    expect(parseMoneyAmount('10')).toBe('10');
    expect(parseMoneyAmount(12.5)).toBe('12.5');
    for (const bad of ['1e3', '99999999999999999999', 1e21, '0', 0, '-5', 'abc', '0x10', true])
      expect(parseMoneyAmount(bad)).toBeNull();
  });
});
