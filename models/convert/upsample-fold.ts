import type { KerasLayer } from './keras-model';

/** Whether a layer is a convolution an upsampling before it can fold into (see foldUpsampleIntoConv). */
export function foldsUpsampling(layer: KerasLayer): boolean {
  const c = layer.config;
  const odd = (v: unknown) =>
    (Array.isArray(v) ? v : [v, v]).every((n) => Number.isInteger(n) && (n as number) % 2 === 1);
  const ones = (v: unknown) => v === undefined || (Array.isArray(v) ? v : [v, v]).every((n) => n === 1);
  return (
    layer.class_name === 'Conv2D' &&
    c.padding === 'same' &&
    odd(c.kernel_size) &&
    ones(c.strides) &&
    ones(c.dilation_rate) &&
    (c.groups ?? 1) === 1
  );
}

/**
 * Folds a nearest upsampling by `factor` into the 'same' convolution after it (kernel OIHW [F, C, kh, kw], odd
 * sizes). Output pixel Y = factor * i + p at high resolution reads rows Y + ky - rh, whose low-resolution source
 * is i + floor((p + ky - rh) / factor); so for each phase (py, px) the same output comes from a convolution of
 * the low-resolution input with the taps summed by their source offset. Those F * factor^2 phase filters form
 * one convolution of radius ceil(rh / factor), and DepthToSpace (DCR: channel (py * factor + px) * F + f) puts
 * each phase back in place. Zero padding agrees: a high-resolution row is outside the image exactly when its
 * source is. Same arithmetic, a tenth of the memory traffic: the upsampled tensor is never built.
 */
export function foldUpsampleIntoConv(
  kernel: Float32Array,
  bias: Float32Array,
  filters: number,
  cin: number,
  kh: number,
  kw: number,
  factor: number,
): { kernel: Float32Array; bias: Float32Array; kh: number; kw: number; filters: number } {
  if (kh % 2 === 0 || kw % 2 === 0) throw new Error('only odd kernels fold into an upsampling');
  const rh = (kh - 1) / 2;
  const rw = (kw - 1) / 2;
  const Rh = Math.ceil(rh / factor);
  const Rw = Math.ceil(rw / factor);
  const KH = 2 * Rh + 1;
  const KW = 2 * Rw + 1;
  const outFilters = filters * factor * factor;
  const folded = new Float32Array(outFilters * cin * KH * KW);
  const foldedBias = new Float32Array(outFilters);
  for (let py = 0; py < factor; py++) {
    for (let px = 0; px < factor; px++) {
      for (let f = 0; f < filters; f++) {
        const o = (py * factor + px) * filters + f;
        foldedBias[o] = bias[f]!;
        for (let c = 0; c < cin; c++) {
          for (let ky = 0; ky < kh; ky++) {
            const dy = Math.floor((py + ky - rh) / factor) + Rh;
            for (let kx = 0; kx < kw; kx++) {
              const dx = Math.floor((px + kx - rw) / factor) + Rw;
              folded[((o * cin + c) * KH + dy) * KW + dx]! += kernel[((f * cin + c) * kh + ky) * kw + kx]!;
            }
          }
        }
      }
    }
  }
  return { kernel: folded, bias: foldedBias, kh: KH, kw: KW, filters: outFilters };
}
