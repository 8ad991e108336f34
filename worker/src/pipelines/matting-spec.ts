import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { readFloats } from '../generation/tensors';

/**
 * How a matting model is fed and read, whether it comes from the manifest (ISNet) or is an operator's own file
 * (models/README.md "Bring your own matting model"): one float32 RGB input stretched to a fixed square or rectangle,
 * normalised per channel, and one matte output of the same size.
 */
export interface MattingSpec {
  /** A manifest id, or the operator's file name (for logs and job notes). */
  id: string;
  width: number;
  height: number;
  input: string;
  output: string;
  /** Per channel R, G, B on 0..255 pixel values: the input is (v - mean) / std. */
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
  /** Logits get a sigmoid; probabilities are clamped to 0..1. */
  outputKind: 'logits' | 'probabilities';
}

/** The spec of a manifest matting model (ISNet: one mean and std for every channel, sigmoid inside the graph). */
export function mattingSpecOf(model: ModelEntry | MattingSpec): MattingSpec {
  if (!('preprocessing' in model)) return model;
  const pre = model.preprocessing;
  if (pre.kind !== 'matting') throw new Error(`${model.id} is not a matting model`);
  return {
    id: model.id,
    width: pre.width,
    height: pre.height,
    input: model.inputs[0]!.name,
    output: pre.maskOutput,
    mean: [pre.mean, pre.mean, pre.mean],
    std: [pre.std, pre.std, pre.std],
    outputKind: 'probabilities',
  };
}

/** Interleaved RGB bytes (spec.width x spec.height) -> NCHW floats, each channel with its own mean and std. */
export function mattingInput(rgb: Uint8Array, spec: MattingSpec): Float32Array {
  const plane = spec.width * spec.height;
  const out = new Float32Array(3 * plane);
  // A lookup per byte value instead of a subtraction and a division for every pixel; one pass over the pixels
  // writes all three planes (a pass per channel read the 3 MB input three times).
  const luts = [0, 1, 2].map((c) => {
    const lut = new Float32Array(256);
    for (let v = 0; v < 256; v++) lut[v] = (v - spec.mean[c]!) / spec.std[c]!;
    return lut;
  });
  const [r, g, b] = luts as [Float32Array, Float32Array, Float32Array];
  for (let i = 0, s = 0; i < plane; i++, s += 3) {
    out[i] = r[rgb[s]!]!;
    out[plane + i] = g[rgb[s + 1]!]!;
    out[2 * plane + i] = b[rgb[s + 2]!]!;
  }
  return out;
}

export interface MatteRun {
  /** 0..1 per pixel at the model's size (sigmoid applied to logits). */
  matte: Float32Array;
  /** The output's dimensions as the model returned them. */
  dims: readonly number[];
  /** The smallest and largest raw output value (before sigmoid or clamping). */
  range: [number, number];
  /** Milliseconds inside onnxruntime. */
  ms: number;
}

/** Runs the model on RGB bytes already at its input size; refuses an output that is not one matte of that size. */
export async function inferMatte(session: ModelRunner, spec: MattingSpec, rgb: Uint8Array): Promise<MatteRun> {
  const dims = [1, 3, spec.height, spec.width];
  // Always float32 in: an fp16 model keeps float32 inputs (models/README.md "Bring your own matting model").
  const feed = { type: 'float32' as const, data: mattingInput(rgb, spec), dims };
  const { outputs, ms } = await session.run({ [spec.input]: feed }, [spec.output]);
  const tensor = outputs[spec.output]!;
  const expected = [1, 1, spec.height, spec.width];
  if (tensor.dims.length !== 4 || tensor.dims.some((d, i) => d !== expected[i]))
    throw new Error(`output ${spec.output} is [${tensor.dims.join(',')}], expected [${expected.join(',')}]`);
  const raw = readFloats(tensor);
  const matte = new Float32Array(raw.length);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
    matte[i] = spec.outputKind === 'logits' ? 1 / (1 + Math.exp(-v)) : v;
  }
  return { matte, dims: tensor.dims, range: [min, max], ms };
}
