import { chargeStepMinor, roundToCharge } from './charge';

describe('roundToCharge', () => {
  it('rounds three-decimal currencies half up to a multiple of 10 minor units, as card processors require', () => {
    expect(roundToCharge(5987n, 1n, 'KWD')).toBe(5990);
    expect(roundToCharge(5984n, 1n, 'KWD')).toBe(5980);
    expect(roundToCharge(5985n, 1n, 'kwd')).toBe(5990);
    expect(roundToCharge(16600n, 10n, 'BHD')).toBe(1660);
    expect(chargeStepMinor('OMR')).toBe(10);
  });

  it('rounds other currencies half up to their minor unit', () => {
    expect(roundToCharge(12345n, 10n, 'EUR')).toBe(1235);
    expect(roundToCharge(12344n, 10n, 'EUR')).toBe(1234);
    expect(roundToCharge(9675n, 10n, 'JPY')).toBe(968);
    expect(chargeStepMinor('JPY')).toBe(1);
  });
});
