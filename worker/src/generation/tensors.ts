import type { TensorData, TensorType } from '../inference';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of a float (round to nearest even), for fp16 exports' inputs. */
export function toHalfBits(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/** Float value of IEEE half-precision bits. */
export function fromHalfBits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** A tensor of the element type a model input declares, from float or integer values (takes ownership of a Float32Array). */
export function makeTensor(type: string, values: ArrayLike<number>, dims: number[]): TensorData {
  const n = values.length;
  switch (type) {
    case 'float16': {
      const data = new Uint16Array(n);
      for (let i = 0; i < n; i += 1) data[i] = toHalfBits(values[i]!);
      return { type: 'float16', data, dims };
    }
    case 'int64': {
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i += 1) data[i] = BigInt(Math.round(values[i]!));
      return { type: 'int64', data, dims };
    }
    case 'int32':
      return { type: 'int32', data: Int32Array.from(values, Math.round), dims };
    case 'float32':
      // A Float32Array is used as is (callers pass fresh arrays: the runtime transfers feed buffers away).
      return { type: 'float32', data: values instanceof Float32Array ? values : Float32Array.from(values), dims };
    default:
      throw new Error(`unsupported input element type ${type}`);
  }
}

/**
 * A model output as float32 values, whatever its float type. onnxruntime hands a float16 output over as a
 * Float16Array of values where JavaScript has one (Node 24) and as the raw half bits in a Uint16Array elsewhere.
 */
export function readFloats(tensor: TensorData): Float32Array {
  if (tensor.type === 'float32') return tensor.data as Float32Array;
  if (tensor.type === 'float16') {
    const data = tensor.data as ArrayLike<number>;
    return isHalfBits(data) ? Float32Array.from(data, fromHalfBits) : Float32Array.from(data);
  }
  throw new Error(`expected a float output, got ${tensor.type as TensorType}`);
}

/** True for half bits in a Uint16Array (from this realm or another: the inference thread's, jest's). */
function isHalfBits(data: ArrayLike<number>): boolean {
  return Object.prototype.toString.call(data) === '[object Uint16Array]';
}
