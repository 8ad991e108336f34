import { SeededRandom } from './rng';

describe('SeededRandom', () => {
  it('gives the same numbers for the same seed and different ones for another seed', () => {
    const a = new SeededRandom(42).gaussian(1000);
    const b = new SeededRandom(42).gaussian(1000);
    const c = new SeededRandom(43).gaussian(1000);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it('keeps producing the numbers it produced when this test was written (seeds stay reproducible)', () => {
    // Pinned outputs: a change here changes every image a user can reproduce from a seed.
    const r = new SeededRandom(0);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual(PINNED_UINT32_SEED0);
    const g = new SeededRandom(2 ** 32 - 1).gaussian(3);
    expect(Array.from(g).map((v) => Number(v.toFixed(6)))).toEqual(PINNED_GAUSS_SEED_MAX);
  });

  it('draws standard normal values', () => {
    const n = 200_000;
    const xs = new SeededRandom(7).gaussian(n);
    let sum = 0;
    let sq = 0;
    let within1 = 0;
    for (const x of xs) {
      sum += x;
      sq += x * x;
      if (Math.abs(x) < 1) within1 += 1;
    }
    const mean = sum / n;
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(sq / n - mean * mean - 1)).toBeLessThan(0.01);
    // 68.27% of a standard normal lies within one standard deviation.
    expect(Math.abs(within1 / n - 0.6827)).toBeLessThan(0.005);
  });

  it('draws uniform integers over the whole 32-bit range', () => {
    const r = new SeededRandom(123);
    const buckets = new Array<number>(16).fill(0);
    for (let i = 0; i < 160_000; i += 1) buckets[r.nextUint32() >>> 28]! += 1;
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});

// Checked against the reference C xoshiro128** seeded by the same splitmix32 steps.
const PINNED_UINT32_SEED0 = [3809008728, 1133695204, 53579671];
const PINNED_GAUSS_SEED_MAX = [-1.711106, 0.587832, -1.016471];
