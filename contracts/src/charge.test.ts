import { chargeableMinor } from './charge';

describe('chargeableMinor', () => {
  it('rounds three-decimal currencies half up to a multiple of 10 minor units', () => {
    expect(chargeableMinor(5987, 'KWD')).toBe(5990);
    expect(chargeableMinor(5984, 'KWD')).toBe(5980);
    expect(chargeableMinor(5985, 'kwd')).toBe(5990);
    expect(chargeableMinor(1660, 'BHD')).toBe(1660);
  });

  it('leaves two- and zero-decimal currencies as quoted', () => {
    expect(chargeableMinor(1234, 'EUR')).toBe(1234);
    expect(chargeableMinor(967, 'JPY')).toBe(967);
  });
});
