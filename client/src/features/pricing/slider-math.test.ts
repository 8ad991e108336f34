import { DEFAULT_SLIDER_PERCENT, sliderPercent, sliderTokens } from './slider-math';

describe('custom token slider (1 to 2000 tokens)', () => {
  it.each([
    [0, 1],
    [10, 200.9],
    [50, 1000.5],
    [99.9, 1998],
    [100, 2000],
  ])('%s percent gives %s tokens', (percent, tokens) => {
    expect(sliderTokens(percent)).toBe(tokens);
  });

  it('starts at 10 percent and keeps every result to one decimal within 1..2000', () => {
    expect(DEFAULT_SLIDER_PERCENT).toBe(10);
    for (let tenth = 0; tenth <= 1000; tenth += 7) {
      const tokens = sliderTokens(tenth / 10);
      expect(Number.isInteger(Math.round(tokens * 10)) && Math.abs(tokens * 10 - Math.round(tokens * 10)) < 1e-9).toBe(
        true,
      );
      expect(tokens).toBeGreaterThanOrEqual(1);
      expect(tokens).toBeLessThanOrEqual(2000);
    }
  });

  it('clamps positions outside 0..100', () => {
    expect(sliderTokens(-5)).toBe(1);
    expect(sliderTokens(140)).toBe(2000);
  });

  it('finds the position that shows a token amount', () => {
    expect(sliderPercent(200.9)).toBe(10);
    expect(sliderTokens(sliderPercent(1000.5))).toBe(1000.5);
    expect(sliderPercent(2000)).toBe(100);
    expect(sliderPercent(0)).toBe(0);
  });
});
