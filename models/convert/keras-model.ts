/** The TF.js layers model as the converter reads it, its weights, and what a conversion gives back. */

/** The parts of a TF.js `model.json` (format "layers-model") the converter reads. */
export interface LayersModelJson {
  format?: string;
  /** Keras files wrap the model config in `model_config`; TF.js's own `save()` writes it bare. */
  modelTopology: { model_config: ModelConfig } | ModelConfig;
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string; quantization?: unknown }[];
  }[];
}

export interface ModelConfig {
  class_name: string;
  config: {
    name?: string;
    layers: KerasLayer[];
    input_layers: [string, number, number][];
    output_layers: [string, number, number][];
  };
}

export interface KerasLayer {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  inbound_nodes: [string, number, number, Record<string, unknown>][][];
}

export interface ConvertOptions {
  /** ONNX input/output names (default 'input' / 'output'). */
  inputName?: string;
  outputName?: string;
  /** Recorded in the ONNX model's doc string. */
  docString?: string;
  metadata?: Record<string, string>;
}

export interface ConvertedModel {
  /** ONNX protobuf bytes. */
  onnx: Uint8Array;
  inputName: string;
  outputName: string;
  inputChannels: number;
  outputChannels: number;
  /** Spatial upscaling factor of the graph (product of UpSampling2D / PixelShuffle factors). */
  scale: number;
  /** Input pixels on each side that influence an output pixel (deepest conv path); overlap tiles by this. */
  receptiveRadius: number;
  /** ONNX op counts, for logs and tests. */
  ops: Record<string, number>;
}

/** A tensor on the way through the graph: its ONNX name, channels, scale so far and receptive radius (input px). */
export interface Value {
  name: string;
  channels: number;
  scale: number;
  radius: number;
  /**
   * Set on a nearest UpSampling2D left unemitted because its one consumer is a Conv2D that absorbs it: `name`
   * is then the low-resolution source and `scale` already includes the factor.
   */
  pendingUpsample?: number;
}

export class UnsupportedLayerError extends Error {
  constructor(layer: KerasLayer, why: string) {
    super(`layer ${layer.name} (${layer.class_name}): ${why}`);
    this.name = 'UnsupportedLayerError';
  }
}

/** Splits the weight bytes into named float32 arrays, in manifest order (groups, then weights). */
export function readWeights(
  manifest: LayersModelJson['weightsManifest'],
  readShard: (path: string) => Uint8Array,
): Map<string, { shape: number[]; data: Float32Array }> {
  const weights = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const group of manifest) {
    const shards = group.paths.map((p) => {
      const bytes = readShard(p);
      if (!bytes) throw new Error(`weight shard ${p} is missing`);
      return bytes;
    });
    const buffer = Buffer.concat(shards);
    let offset = 0;
    for (const w of group.weights) {
      if (w.dtype !== 'float32' || w.quantization)
        throw new Error(
          `weight ${w.name}: only unquantised float32 weights are supported (got ${w.dtype}${w.quantization ? ', quantised' : ''})`,
        );
      const count = w.shape.reduce((a, b) => a * b, 1);
      const end = offset + count * 4;
      if (end > buffer.length) throw new Error(`weight ${w.name} runs past the end of its shards`);
      // Copy: the shard offset need not be 4-byte aligned.
      const data = new Float32Array(count);
      new Uint8Array(data.buffer).set(buffer.subarray(offset, end));
      weights.set(w.name, { shape: w.shape, data });
      offset = end;
    }
    if (offset !== buffer.length)
      throw new Error(`weight group ${group.paths.join(',')}: ${buffer.length - offset} unused bytes`);
  }
  return weights;
}

/** Permutes a Keras kernel [kh, kw, cin, cout] (HWIO) into ONNX order [cout, cin, kh, kw] (OIHW). */
export function hwioToOihw(kernel: Float32Array, kh: number, kw: number, cin: number, cout: number): Float32Array {
  const out = new Float32Array(kernel.length);
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let i = 0; i < cin; i++) {
        for (let o = 0; o < cout; o++) {
          out[((o * cin + i) * kh + y) * kw + x] = kernel[((y * kw + x) * cin + i) * cout + o] as number;
        }
      }
    }
  }
  return out;
}

/** A Keras size (one number or two), as [height, width]. */
export const pair = (v: unknown, what: string, layer: KerasLayer): [number, number] => {
  if (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n)))
    return [v[0] as number, v[1] as number];
  if (Number.isInteger(v)) return [v as number, v as number];
  throw new UnsupportedLayerError(layer, `bad ${what} ${JSON.stringify(v)}`);
};
