import { blendBand, blendTile, planSpans, rampWeights } from './tiles';

describe('planSpans', () => {
  it('uses one span when the image fits in a tile', () => {
    expect(planSpans(100, 128, 20)).toEqual([{ start: 0, length: 100, overlapBefore: 0 }]);
  });

  it('covers the whole axis with overlapping spans, the last aligned to the end', () => {
    const spans = planSpans(300, 128, 20);
    expect(spans[0]!.start).toBe(0);
    const last = spans[spans.length - 1]!;
    expect(last.start + last.length).toBe(300);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.overlapBefore).toBeGreaterThanOrEqual(20);
  });

  it('never exceeds the tile, never overlaps less than asked, for any size', () => {
    for (let size = 1; size < 1200; size += 7) {
      const spans = planSpans(size, 320, 28);
      const last = spans[spans.length - 1]!;
      expect(last.start + last.length).toBe(size);
      for (const s of spans) expect(s.length).toBeLessThanOrEqual(320);
      for (const s of spans.slice(1)) expect(s.overlapBefore).toBeGreaterThanOrEqual(28);
    }
    expect(planSpans(512, 320, 28)).toHaveLength(2);
  });
});

describe('rampWeights', () => {
  it('is 0 over the pad after a neighbour, ramps, then stays 1', () => {
    const w = rampWeights({ start: 100, length: 64, overlapBefore: 24 }, 2, 8);
    expect(w.length).toBe(128);
    expect(Array.from(w.slice(0, 16))).toEqual(new Array(16).fill(0));
    expect(w[16]).toBeGreaterThan(0);
    expect(w[31]).toBeLessThan(1);
    expect(Array.from(w.slice(32))).toEqual(new Array(96).fill(1));
  });

  it('sums to 1 with the previous tile across the overlap', () => {
    // Previous tile is weight 1 up to its end; the next blends over it with w, so contributions are (1-w) and w.
    const w = rampWeights({ start: 0, length: 40, overlapBefore: 30 }, 1, 5);
    expect(Array.from(w.slice(25, 30))).toEqual([1, 1, 1, 1, 1]); // previous tile's unreliable pad is fully replaced
  });

  it('has no ramp for the first tile', () => {
    expect(Array.from(rampWeights({ start: 0, length: 4, overlapBefore: 0 }, 2, 1))).toEqual(new Array(8).fill(1));
  });
});

describe('blendTile', () => {
  it('writes clamped bytes with weight 1 and blends with fractional weights', () => {
    const out = new Uint8Array(2 * 1 * 3).fill(100);
    const tile = new Float32Array([1.2, 0.5, 0, 0, 0.25, 1]); // 3 planes x 2 pixels, values 0..1
    blendTile(out, 2, tile, 2, 1, 0, 0, new Float32Array([0.5, 1]), new Float32Array([1]), 1);
    // Pixel 0 is half old value, half clamped tile value; pixel 1 is the tile value.
    expect(Array.from(out)).toEqual([178, 50, 82, 128, 0, 255]);
  });
});

describe('blendBand', () => {
  it('copies rows with weight 1, skips weight 0 and mixes the rest', () => {
    const out = new Uint8Array(1 * 3 * 3).fill(10);
    const band = new Uint8Array(1 * 3 * 3).fill(210);
    blendBand(out, 1, band, 3, 0, new Float32Array([0, 0.5, 1]));
    expect(Array.from(out)).toEqual([10, 10, 10, 110, 110, 110, 210, 210, 210]);
  });
});
