/** The quantizer's arithmetic: rounding, and the scales and zero points of activations, weights and biases. */

import type { Range } from './quant-plan';

/** uint8 activations span 0..255. */
const UINT8_MAX = 255;
/** int8 weights are symmetric: -127..127 (-128 unused, so zero sits in the middle). */
const INT8_WEIGHT_MAX = 127;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Round half to even, as QuantizeLinear does. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** uint8 scale and zero point of an activation range (widened to include 0, as zero must be exact). */
export function activationParams(range: Range): { scale: number; zeroPoint: number } {
  const min = Math.min(range.min, 0);
  const max = Math.max(range.max, 0);
  const scale = Math.fround(max > min ? (max - min) / UINT8_MAX : 1);
  const zeroPoint = Math.min(UINT8_MAX, Math.max(0, roundHalfEven(-min / scale)));
  return { scale, zeroPoint };
}

/** Symmetric int8 per output channel (axis 0): scale[o] = max |w[o]| / 127, zero point 0. */
export function quantizeWeights(w: Float32Array, outChannels: number): { q: Int8Array; scales: Float32Array } {
  const per = w.length / outChannels;
  const q = new Int8Array(w.length);
  const scales = new Float32Array(outChannels);
  for (let o = 0; o < outChannels; o++) {
    let maxAbs = 0;
    for (let i = o * per; i < (o + 1) * per; i++) maxAbs = Math.max(maxAbs, Math.abs(w[i]!));
    const s = Math.fround(maxAbs > 0 ? maxAbs / INT8_WEIGHT_MAX : 1);
    scales[o] = s;
    for (let i = o * per; i < (o + 1) * per; i++)
      q[i] = Math.max(-INT8_WEIGHT_MAX, Math.min(INT8_WEIGHT_MAX, roundHalfEven(w[i]! / s)));
  }
  return { q, scales };
}

/** int32 bias with scale s_x * s_w[o] (what QLinearConv adds to the integer accumulator). */
export function quantizeBias(
  b: Float32Array,
  inputScale: number,
  weightScales: Float32Array,
): { q: Int32Array; scales: Float32Array } {
  const q = new Int32Array(b.length);
  const scales = new Float32Array(b.length);
  for (let o = 0; o < b.length; o++) {
    const s = Math.fround(inputScale * weightScales[o]!);
    scales[o] = s;
    q[o] = Math.max(INT32_MIN, Math.min(INT32_MAX, roundHalfEven(b[o]! / s)));
  }
  return { q, scales };
}
