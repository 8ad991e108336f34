import {
  cutoutConfidence,
  DOUBTFUL_CUTOUT_CONFIDENCE,
  edgeAllowance,
  isDoubtfulCutout,
  UNCERTAIN_MAX,
} from './cutout-confidence';
import { SUBJECT_ALPHA_THRESHOLD } from './subject-box';

const [W, H] = [400, 300];

/**
 * A disc of radius r at (cx, cy) drawn into `m`: opaque inside, its outline anti-aliased over `soft` px (alpha
 * falling from 255 to 0 across it), as a matting model's edge.
 */
function disc(m: Uint8Array, cx: number, cy: number, r: number, soft = 1.5): void {
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const d = Math.hypot(x - cx, y - cy);
      const a = Math.round(255 * Math.min(1, Math.max(0, (r - d) / soft)));
      const i = y * W + x;
      if (a > m[i]!) m[i] = a;
    }
}

function solidSubject(soft?: number): Uint8Array {
  const m = new Uint8Array(W * H);
  disc(m, 200, 150, 110, soft);
  return m;
}

describe('cutoutConfidence', () => {
  it('scores a clean solid subject with a soft outline 1: the edge band is left out', () => {
    // Soft over 3 px: wider than the 2 px allowance only at its faint outer end, where alpha is under 26.
    const figures = cutoutConfidence(solidSubject(3), W, H)!;
    expect(figures.confidence).toBe(1);
    expect(figures.detachedParts).toBe(0);
    // The outline itself holds uncertain pixels: they are not counted.
    const uncertainOnOutline = solidSubject(3).filter((a) => a >= SUBJECT_ALPHA_THRESHOLD && a <= UNCERTAIN_MAX);
    expect(uncertainOnOutline.length).toBeGreaterThan(500);
    // A few pixels on the grid's diagonals at most.
    expect(figures.uncertainShare).toBeLessThan(0.001);
  });

  it('scores a blotchy, half-transparent subject low, and the more of it the lower', () => {
    const blotchy = (every: number) => {
      const m = solidSubject();
      // 12 px blotches at 50% alpha on a grid inside the disc.
      for (let y = 60; y < 240; y += every)
        for (let x = 110; x < 290; x += every)
          if (Math.hypot(x + 6 - 200, y + 6 - 150) < 95)
            for (let yy = y; yy < y + 12; yy++) m.fill(128, yy * W + x, yy * W + x + 12);
      return cutoutConfidence(m, W, H)!;
    };
    const sparse = blotchy(36);
    const dense = blotchy(16);
    expect(sparse.confidence).toBeLessThan(DOUBTFUL_CUTOUT_CONFIDENCE);
    expect(dense.confidence).toBeLessThan(sparse.confidence);
    expect(dense.confidence).toBeLessThan(0.2);
    expect(dense.uncertainShare).toBeGreaterThan(0.2);
  });

  it('scores a subject left wholly half transparent 0', () => {
    const m = solidSubject().map((a) => Math.min(a, 140));
    expect(cutoutConfidence(m, W, H)!.confidence).toBe(0);
  });

  it('takes off for small detached parts, not for a second part of real size', () => {
    const clean = cutoutConfidence(solidSubject(), W, H)!;
    const withBlobs = solidSubject();
    for (const [x, y] of [
      [40, 40],
      [360, 40],
      [40, 260],
      [360, 260],
    ] as const)
      disc(withBlobs, x, y, 6);
    const blobs = cutoutConfidence(withBlobs, W, H)!;
    expect(blobs.detachedParts).toBe(4);
    expect(blobs.confidence).toBeLessThan(clean.confidence);
    expect(blobs.confidence).toBe(0.8);
    expect(isDoubtfulCutout(blobs.confidence)).toBe(true);

    // Two shoes: two discs of similar size are one subject of two parts, as sure as one.
    const pair = new Uint8Array(W * H);
    disc(pair, 100, 150, 80);
    disc(pair, 300, 150, 70);
    expect(cutoutConfidence(pair, W, H)!).toMatchObject({ confidence: 1, detachedParts: 0 });
  });

  it('is null for a matte without a subject, and refuses a matte of the wrong size', () => {
    expect(cutoutConfidence(new Uint8Array(W * H).fill(SUBJECT_ALPHA_THRESHOLD - 1), W, H)).toBeNull();
    expect(() => cutoutConfidence(new Uint8Array(10), W, H)).toThrow();
  });

  it('widens the edge allowance with the image, from 2 px', () => {
    expect(edgeAllowance(451, 300)).toBe(2);
    expect(edgeAllowance(2000, 1000)).toBe(4);
    expect(edgeAllowance(4000, 3000)).toBe(8);
  });
});

describe('isDoubtfulCutout', () => {
  it('is true below the threshold only, and never without a score', () => {
    expect(isDoubtfulCutout(DOUBTFUL_CUTOUT_CONFIDENCE - 0.01)).toBe(true);
    expect(isDoubtfulCutout(DOUBTFUL_CUTOUT_CONFIDENCE)).toBe(false);
    expect(isDoubtfulCutout(1)).toBe(false);
    expect(isDoubtfulCutout(null)).toBe(false);
    expect(isDoubtfulCutout(undefined)).toBe(false);
  });
});
