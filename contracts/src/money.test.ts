import { divRoundHalfUp, parseDecimal, rescale, formatScaled } from './decimal';
import { currencyDecimals, formatPrice } from './currency';
import { convertDecimal, convertFromBase, formatPricePerToken, fromMinorUnits, toMinorUnits } from './money';

describe('exact decimals', () => {
  it('parses numbers and strings without binary drift', () => {
    expect(parseDecimal('12.345')).toEqual({ units: 12345n, scale: 3 });
    expect(parseDecimal(0.1)).toEqual({ units: 1n, scale: 1 });
    expect(parseDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(parseDecimal('-0.50')).toEqual({ units: -50n, scale: 2 });
    expect(() => parseDecimal('1e3')).toThrow(RangeError);
    expect(() => parseDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => parseDecimal('12,5')).toThrow(RangeError);
  });

  it('rounds half away from zero', () => {
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(-5n, 10n)).toBe(-1n);
    expect(divRoundHalfUp(15n, 10n)).toBe(2n);
    expect(formatScaled(rescale(parseDecimal('0.125'), 2))).toBe('0.13');
    expect(formatScaled(rescale(parseDecimal('7'), 3))).toBe('7.000');
  });
});

describe('currency minor units (0, 2 or 3 decimals)', () => {
  it('knows the zero- and three-decimal currencies', () => {
    for (const code of ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'VUV', 'XAF', 'XOF', 'XPF'])
      expect(currencyDecimals(code)).toBe(0);
    for (const code of ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']) expect(currencyDecimals(code)).toBe(3);
    for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'jpy'])
      expect(currencyDecimals(code)).toBe(code === 'jpy' ? 0 : 2);
  });

  it('converts between major and minor units exactly', () => {
    expect(toMinorUnits(0.29, 'EUR')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(toMinorUnits('1234.5', 'JPY')).toBe(1235);
    expect(toMinorUnits(0.0335, 'KWD')).toBe(34);
    expect(fromMinorUnits(1999, 'EUR')).toBe(19.99);
    expect(fromMinorUnits(420, 'KWD')).toBe(0.42);
    expect(fromMinorUnits(1463, 'JPY')).toBe(1463);
  });

  it('converts base-currency cents at a rate, rounding once to the target unit', () => {
    expect(convertFromBase(999, '1', 'EUR')).toBe(999);
    expect(convertFromBase(999, '1.08', 'USD')).toBe(1079); // 10.7892
    expect(convertFromBase(999, '162.5', 'JPY')).toBe(1623); // 1623.375
    expect(convertFromBase(999, '0.3315', 'KWD')).toBe(3310); // 3.311685, to the 0.010 charge step
    expect(convertDecimal('0.09', '162.5', 4)).toBe('14.6250');
    expect(convertDecimal('0.1', '0.3315', 4)).toBe('0.0332');
  });
});

describe('price formatting', () => {
  it('shows 0.00 for a falsy amount and US English currency style otherwise', () => {
    expect(formatPrice(0, 'EUR')).toBe('0.00');
    expect(formatPrice(undefined, 'EUR')).toBe('0.00');
    expect(formatPrice(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatPrice(1234.5, 'JPY')).toBe('¥1,235');
    expect(formatPrice(0.42, 'KWD')).toMatch(/^KWD\s0\.420$/);
    expect(formatPrice(9.99, 'USD')).toBe('$9.99');
  });

  it('falls back to symbol and amount when Intl does not know the code', () => {
    expect(formatPrice(5, 'TOKENS', 'T')).toBe('T5.00');
  });

  it('shows a price per token with the decimals it is given', () => {
    expect(formatPricePerToken(0.0972, 'EUR', 2)).toBe('€0.10');
    expect(formatPricePerToken(0.0298, 'KWD', 4)).toMatch(/^KWD\s0\.0298$/);
    expect(formatPricePerToken(14.625, 'JPY', 0)).toBe('¥15');
    expect(formatPricePerToken(0.5, 'TOKENS', 3, 'T')).toBe('T0.500');
  });
});
