// Plain JS reference implementations of the ops the converter emits, for tests: deliberately naive loops,
// NCHW with batch 1, float64 accumulation, so they are easy to check by reading.

/** A [C, H, W] image tensor. */
export interface Chw {
  c: number;
  h: number;
  w: number;
  data: Float32Array;
}

export function chw(c: number, h: number, w: number, data: Float32Array = new Float32Array(c * h * w)): Chw {
  if (data.length !== c * h * w) throw new Error('size mismatch');
  return { c, h, w, data };
}

/**
 * 2-D convolution, stride 1, zero padding `pad` on every side. `kernel` is OIHW [cout, cin, k, k].
 */
export function conv2d(x: Chw, kernel: Float32Array, bias: Float32Array, cout: number, k: number, pad: number): Chw {
  const oh = x.h + 2 * pad - k + 1;
  const ow = x.w + 2 * pad - k + 1;
  const out = chw(cout, oh, ow);
  for (let o = 0; o < cout; o++) {
    for (let y = 0; y < oh; y++) {
      for (let xx = 0; xx < ow; xx++) {
        let sum = bias[o] as number;
        for (let i = 0; i < x.c; i++) {
          for (let ky = 0; ky < k; ky++) {
            const sy = y + ky - pad;
            if (sy < 0 || sy >= x.h) continue;
            for (let kx = 0; kx < k; kx++) {
              const sx = xx + kx - pad;
              if (sx < 0 || sx >= x.w) continue;
              sum +=
                (x.data[(i * x.h + sy) * x.w + sx] as number) * (kernel[((o * x.c + i) * k + ky) * k + kx] as number);
            }
          }
        }
        out.data[(o * oh + y) * ow + xx] = sum;
      }
    }
  }
  return out;
}

export function relu(x: Chw): Chw {
  return chw(
    x.c,
    x.h,
    x.w,
    x.data.map((v) => Math.max(0, v)),
  );
}

export function add(a: Chw, b: Chw): Chw {
  return chw(
    a.c,
    a.h,
    a.w,
    a.data.map((v, i) => v + (b.data[i] as number)),
  );
}

export function scale(a: Chw, factor: number): Chw {
  return chw(
    a.c,
    a.h,
    a.w,
    a.data.map((v) => v * factor),
  );
}

/** Concatenation along channels. */
export function concat(parts: Chw[]): Chw {
  const first = parts[0] as Chw;
  const c = parts.reduce((s, p) => s + p.c, 0);
  const out = chw(c, first.h, first.w);
  let offset = 0;
  for (const p of parts) {
    out.data.set(p.data, offset);
    offset += p.data.length;
  }
  return out;
}

/** Nearest-neighbour upsampling by an integer factor (each pixel repeated factor x factor). */
export function upsampleNearest(x: Chw, factor: number): Chw {
  const out = chw(x.c, x.h * factor, x.w * factor);
  for (let c = 0; c < x.c; c++) {
    for (let y = 0; y < out.h; y++) {
      for (let xx = 0; xx < out.w; xx++) {
        out.data[(c * out.h + y) * out.w + xx] = x.data[
          (c * x.h + Math.floor(y / factor)) * x.w + Math.floor(xx / factor)
        ] as number;
      }
    }
  }
  return out;
}

/**
 * ONNX DepthToSpace. Mode DCR (TensorFlow's depth_to_space): output channel c at block offset (by, bx) comes from
 * input channel (by * block + bx) * cOut + c. Mode CRD (PyTorch's pixel shuffle): from c * block^2 + by * block + bx.
 */
export function depthToSpace(x: Chw, block: number, mode: 'DCR' | 'CRD' = 'DCR'): Chw {
  const cOut = x.c / (block * block);
  const out = chw(cOut, x.h * block, x.w * block);
  for (let c = 0; c < cOut; c++) {
    for (let y = 0; y < out.h; y++) {
      for (let xx = 0; xx < out.w; xx++) {
        const offset = (y % block) * block + (xx % block);
        const src = mode === 'DCR' ? offset * cOut + c : c * block * block + offset;
        out.data[(c * out.h + y) * out.w + xx] = x.data[
          (src * x.h + Math.floor(y / block)) * x.w + Math.floor(xx / block)
        ] as number;
      }
    }
  }
  return out;
}

/** Peak signal-to-noise ratio in dB of `actual` against `expected` for values spanning 0..peak. */
export function psnr(expected: ArrayLike<number>, actual: ArrayLike<number>, peak: number): number {
  if (expected.length !== actual.length) throw new Error(`length ${actual.length} != ${expected.length}`);
  let se = 0;
  for (let i = 0; i < expected.length; i++) se += ((expected[i] as number) - (actual[i] as number)) ** 2;
  const mse = se / expected.length;
  return mse === 0 ? Infinity : 10 * Math.log10((peak * peak) / mse);
}

/** Largest absolute difference between two arrays. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
}

/** Deterministic pseudo-random floats in [lo, hi) (mulberry32), so failures reproduce. */
export function randomFloats(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = lo + (hi - lo) * (((t ^ (t >>> 14)) >>> 0) / 4294967296);
  }
  return out;
}

/** PReLU with one slope per channel. */
export function prelu(x: Chw, slopes: Float32Array): Chw {
  const plane = x.h * x.w;
  return chw(
    x.c,
    x.h,
    x.w,
    x.data.map((v, i) => (v >= 0 ? v : v * (slopes[Math.floor(i / plane)] as number))),
  );
}

/**
 * Bicubic halving (Keys kernel, a = -0.75, half-pixel centres, edge pixels repeated): output pixel d reads
 * source pixels 2d - 1 .. 2d + 2 at distances 1.5, 0.5, 0.5, 1.5.
 */
export function bicubicHalve(x: Chw): Chw {
  const a = -0.75;
  const near = ((a + 2) * 0.5 - (a + 3)) * 0.25 + 1; // |t| = 0.5
  const far = ((a * 1.5 - 5 * a) * 1.5 + 8 * a) * 1.5 - 4 * a; // |t| = 1.5
  const taps = [far, near, near, far];
  const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
  const oh = Math.floor(x.h / 2);
  const ow = Math.floor(x.w / 2);
  const out = chw(x.c, oh, ow);
  for (let c = 0; c < x.c; c++) {
    for (let y = 0; y < oh; y++) {
      for (let xx = 0; xx < ow; xx++) {
        let sum = 0;
        for (let i = 0; i < 4; i++) {
          for (let j = 0; j < 4; j++) {
            const sy = clamp(2 * y - 1 + i, x.h);
            const sx = clamp(2 * xx - 1 + j, x.w);
            sum += (taps[i] as number) * (taps[j] as number) * (x.data[(c * x.h + sy) * x.w + sx] as number);
          }
        }
        out.data[(c * oh + y) * ow + xx] = sum;
      }
    }
  }
  return out;
}
