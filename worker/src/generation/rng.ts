/**
 * Seeded Gaussian noise for latents and ancestral steps. Our own generator (xoshiro128** seeded through
 * splitmix32, Box-Muller for normals) so the same seed gives the same numbers on every machine and Node
 * version: the seed a user sees reproduces the image.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare: number | undefined;

  constructor(seed: number) {
    // splitmix32 spreads any 32-bit seed (0 included) over the 128-bit state.
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
  }

  /** Next uniform 32-bit unsigned integer (xoshiro128**). */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    return result;
  }

  /** Uniform in (0, 1), never exactly 0 so the logarithm below stays finite. */
  nextUniform(): number {
    return (this.nextUint32() + 0.5) / 4294967296;
  }

  /** Standard normal sample (Box-Muller; the second value of each pair is kept for the next call). */
  nextGaussian(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(this.nextUniform()));
    const theta = 2 * Math.PI * this.nextUniform();
    this.spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  /** `length` standard normal samples. */
  gaussian(length: number): Float32Array {
    const out = new Float32Array(length);
    for (let i = 0; i < length; i += 1) out[i] = this.nextGaussian();
    return out;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
