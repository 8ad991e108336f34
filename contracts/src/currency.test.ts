import { currencyDecimals, formatPrice } from './currency';

describe('currency decimals', () => {
  it('knows the zero-, two- and three-decimal currencies', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('xof')).toBe(0);
    expect(currencyDecimals('KWD')).toBe(3);
    expect(currencyDecimals('EUR')).toBe(2);
  });
});

describe('formatPrice', () => {
  it('shows 0.00 for a falsy amount', () => {
    expect(formatPrice(0, 'EUR')).toBe('0.00');
    expect(formatPrice(null, 'JPY')).toBe('0.00');
    expect(formatPrice(undefined, 'USD', '$')).toBe('0.00');
  });

  it('uses US English currency style with the right decimals', () => {
    expect(formatPrice(1234.5, 'USD')).toBe('$1,234.50');
    expect(formatPrice(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatPrice(1234.4, 'JPY')).toBe('¥1,234');
    expect(formatPrice(1.2345, 'KWD')).toMatch(/^KWD\s1\.235$/);
  });

  it('falls back to the symbol and the amount for a code Intl rejects', () => {
    expect(formatPrice(5, 'NOT-A-CODE', 'T')).toBe('T5.00');
  });
});
