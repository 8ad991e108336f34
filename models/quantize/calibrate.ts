// Calibration: runs the fp32 model with the tensors to quantize exposed as extra outputs over a few inputs and
// records a clipped range per tensor. Per input, the low and high percentiles of the tensor's values (from a
// 4096-bin histogram between its min and max); the range is the mean of those over the inputs. Runs the model in
// groups of tensors so the exposed feature maps of a 1024^2 ISNet never sit in memory all at once.
import * as ort from 'onnxruntime-node';
import { exposeTensors, type QuantizeOptions, type Range } from './quantize';

export interface CalibrationInput {
  data: Float32Array;
  dims: number[];
}

export interface CalibrationOptions {
  /** Name of the model's (single) input. */
  inputName: string;
  /** Share of values clipped at each end, in percent (0 = plain min/max). */
  clipPercent: number;
  /** Tensors exposed per run (memory: each is a whole feature map). */
  groupSize?: number;
  /** The quantizer's options: the float graph is prepared the same way (outputs pruned, PRelu rewritten). */
  graph?: QuantizeOptions;
  log?: (line: string) => void;
}

const BINS = 4096;

/** Value below which `fraction` of `data` lies, from a histogram between min and max (deterministic). */
export function percentileRange(data: Float32Array, clipPercent: number): Range {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (clipPercent <= 0 || !(max > min)) return { min, max };
  const hist = new Float64Array(BINS);
  const k = BINS / (max - min);
  for (let i = 0; i < data.length; i++) {
    const bin = Math.min(BINS - 1, Math.floor((data[i]! - min) * k));
    hist[bin] = hist[bin]! + 1;
  }
  const clip = (data.length * clipPercent) / 100;
  let lo = 0;
  for (let acc = 0; lo < BINS - 1 && acc + hist[lo]! <= clip; lo++) acc += hist[lo]!;
  let hi = BINS - 1;
  for (let acc = 0; hi > 0 && acc + hist[hi]! <= clip; hi--) acc += hist[hi]!;
  return { min: min + lo / k, max: min + (hi + 1) / k };
}

/** Calibrated range of every tensor in `tensors` over `inputs` (see the file comment). */
export async function calibrate(
  fp32Bytes: Uint8Array,
  tensors: readonly string[],
  inputs: readonly CalibrationInput[],
  options: CalibrationOptions,
): Promise<Record<string, Range>> {
  const group = options.groupSize ?? 32;
  const sums = new Map<string, { min: number; max: number }>();
  for (let g = 0; g < tensors.length; g += group) {
    const names = tensors.slice(g, g + group);
    const session = await ort.InferenceSession.create(exposeTensors(fp32Bytes, names, options.graph), {
      executionMode: 'sequential',
      intraOpNumThreads: 2,
      interOpNumThreads: 1,
      enableMemPattern: false,
      logSeverityLevel: 3,
    });
    try {
      for (const input of inputs) {
        const out = await session.run(
          { [options.inputName]: new ort.Tensor('float32', input.data, input.dims) },
          names as string[],
        );
        for (const name of names) {
          const r = percentileRange(out[name]!.data as Float32Array, options.clipPercent);
          const s = sums.get(name) ?? { min: 0, max: 0 };
          sums.set(name, { min: s.min + r.min, max: s.max + r.max });
        }
      }
    } finally {
      await session.release();
    }
    options.log?.(`calibrated ${Math.min(g + group, tensors.length)}/${tensors.length} tensors`);
  }
  const ranges: Record<string, Range> = {};
  for (const name of tensors) {
    const s = sums.get(name)!;
    // Six significant digits: the table is committed and read back, so print what is stored.
    ranges[name] = {
      min: Number((s.min / inputs.length).toPrecision(6)),
      max: Number((s.max / inputs.length).toPrecision(6)),
    };
  }
  return ranges;
}
