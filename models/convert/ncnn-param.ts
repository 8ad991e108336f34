import { halfToFloat } from './fp16-to-fp32';

/** ncnn's two files as the converter reads them: the .param text (parseParam) and the .bin weights (BinReader). */

export const NCNN_MAGIC = 7767517;
/** The storage tag before fp16 weights in the .bin file. */
const FP16_TAG = 0x01306b47;

/** Param keys at or below this hold arrays: key -23310 is the array of key 10. */
const ARRAY_KEY_BASE = -23300;

export type ParamValue = number | number[];

export interface NcnnLayer {
  type: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** key -> value; an array key is stored under its plain key (-23310 -> 10). */
  params: Map<number, ParamValue>;
}

export class UnsupportedLayerError extends Error {
  constructor(layer: Pick<NcnnLayer, 'type' | 'name'>, why: string) {
    super(`ncnn layer ${layer.name} (${layer.type}): ${why}`);
    this.name = 'UnsupportedLayerError';
  }
}

/** Parses an ncnn .param text file. */
export function parseParam(text: string): NcnnLayer[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (Number(lines[0]) !== NCNN_MAGIC)
    throw new Error(`not an ncnn param file: first line is "${lines[0] ?? ''}", expected ${NCNN_MAGIC}`);
  const [layerCount] = (lines[1] ?? '').split(/\s+/).map(Number);
  const layers = lines.slice(2).map((line, i): NcnnLayer => {
    const parts = line.split(/\s+/);
    const [type = '', name = '', nIn = 'x', nOut = 'x'] = parts;
    const inCount = Number(nIn);
    const outCount = Number(nOut);
    if (!Number.isInteger(inCount) || !Number.isInteger(outCount))
      throw new Error(`param line ${i + 3}: bad input/output counts`);
    const params = new Map<number, ParamValue>();
    for (const kv of parts.slice(4 + inCount + outCount)) {
      const eq = kv.indexOf('=');
      const key = Number(kv.slice(0, eq));
      const value = kv.slice(eq + 1);
      if (eq < 0 || !Number.isInteger(key)) throw new Error(`param line ${i + 3}: bad parameter "${kv}"`);
      if (key <= ARRAY_KEY_BASE) {
        const [n, ...values] = value.split(',').map(Number);
        if (values.length !== n)
          throw new Error(`param line ${i + 3}: array ${kv} has ${values.length} values, says ${n}`);
        params.set(ARRAY_KEY_BASE - key, values);
      } else {
        params.set(key, Number(value));
      }
    }
    return {
      type,
      name,
      inputs: parts.slice(4, 4 + inCount),
      outputs: parts.slice(4 + inCount, 4 + inCount + outCount),
      params,
    };
  });
  if (layers.length !== layerCount) throw new Error(`param file declares ${layerCount} layers, has ${layers.length}`);
  return layers;
}

/** Reads a .bin file in layer order, the way ncnn's ModelBin does. */
export class BinReader {
  private offset = 0;
  constructor(private readonly bin: Uint8Array) {}

  private view(bytes: number, layer: NcnnLayer): DataView {
    if (this.offset + bytes > this.bin.length)
      throw new UnsupportedLayerError(
        layer,
        `bin file ends at ${this.bin.length}, layer needs ${bytes} bytes at ${this.offset}`,
      );
    const v = new DataView(this.bin.buffer, this.bin.byteOffset + this.offset, bytes);
    this.offset += bytes;
    return v;
  }

  /** `count` raw little-endian float32 values. */
  raw(count: number, layer: NcnnLayer): Float32Array {
    const v = this.view(count * 4, layer);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = v.getFloat32(i * 4, true);
    return out;
  }

  /** `count` values behind a 4-byte storage tag (fp16 or fp32). */
  tagged(count: number, layer: NcnnLayer): Float32Array {
    const tag = this.view(4, layer).getUint32(0, true);
    if (tag === 0) return this.raw(count, layer);
    if (tag !== FP16_TAG)
      throw new UnsupportedLayerError(
        layer,
        `weight storage tag 0x${tag.toString(16)} not supported (only fp16 0x${FP16_TAG.toString(16)} and fp32 0)`,
      );
    const v = this.view(Math.ceil((count * 2) / 4) * 4, layer);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = halfToFloat(v.getUint16(i * 2, true));
    return out;
  }

  get remaining(): number {
    return this.bin.length - this.offset;
  }
}

/** A layer's number parameter, or `fallback` when the line leaves it out. */
export const num = (layer: NcnnLayer, key: number, fallback: number): number => {
  const v = layer.params.get(key);
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new UnsupportedLayerError(layer, `parameter ${key} should be a number`);
  return v;
};
/** A layer's array parameter (a single number as a one-element array; none: empty). */
export const arr = (layer: NcnnLayer, key: number): number[] => {
  const v = layer.params.get(key);
  return v === undefined ? [] : typeof v === 'number' ? [v] : v;
};
