import { type AttributeValue, float, type GraphBuilder } from '../onnx';
import { type BinReader, type NcnnLayer, UnsupportedLayerError, arr, num } from './ncnn-param';

/** One ncnn layer at a time into ONNX nodes (convertNcnnModel walks the layers in order). */

export type Attrs = Record<string, AttributeValue>;

/**
 * A blob on the way through the graph: its ONNX name, channels, scale relative to the input, and receptive
 * radius in input pixels around the input pixel an output pixel sits on.
 */
export interface Blob {
  name: string;
  channels: number;
  scale: number;
  radius: number;
}

/** What every layer's conversion shares: the graph, the bin file, and the blobs made so far. */
export interface NcnnConversion {
  g: GraphBuilder;
  reader: BinReader;
  blobs: Map<string, Blob>;
  /** Adds an op; `last` = it writes the layer's output blob (named the model's output name for the final one). */
  emit(layer: NcnnLayer, op: string, inputs: string[], attrs?: Attrs, last?: boolean): string;
  /** Records the blob a layer's (first) output is. */
  set(layer: NcnnLayer, blob: Blob): void;
  inputName: string;
  inputChannels: number;
}

/** Convolution's param keys (ncnn's layer/convolution.cpp); a missing *H key takes its *W key's value. */
const CONV = {
  filters: 0,
  kernelW: 1,
  kernelH: 11,
  dilationW: 2,
  dilationH: 12,
  strideW: 3,
  strideH: 13,
  padLeft: 4,
  padRight: 15,
  padTop: 14,
  padBottom: 16,
  biasTerm: 5,
  weightSize: 6,
  int8: 8,
  activation: 9,
  activationParams: 10,
  padValue: 18,
} as const;
/** Convolution's fused activations: none, ReLU, LeakyReLU (slope in activationParams), sigmoid. */
const FUSED = { none: 0, relu: 1, leakyRelu: 2, sigmoid: 4 } as const;
/** Interp's param keys and its resize types. */
const INTERP = { type: 0, scaleH: 1, scaleW: 2, outH: 3, outW: 4, dynamic: 5, alignCorners: 6 } as const;
const RESIZE = { nearest: 1, bilinear: 2, bicubic: 3 } as const;
/** ncnn's (and PyTorch's) bicubic coefficient. */
const BICUBIC_A = -0.75;

const ELTWISE_OPS: Record<number, string> = { 0: 'Mul', 1: 'Sum', 2: 'Max' };
const ELTWISE_SUM = 1;
const BINARY_OPS: Record<number, string> = { 0: 'Add', 1: 'Sub', 2: 'Mul', 3: 'Div' };

/** Converts one layer, recording the blobs it makes. */
export function convertNcnnLayer(c: NcnnConversion, layer: NcnnLayer): void {
  switch (layer.type) {
    case 'Input':
      c.g.input(c.inputName, 'float32', [1, c.inputChannels, 'height', 'width']);
      c.set(layer, { name: c.inputName, channels: c.inputChannels, scale: 1, radius: 0 });
      return;
    case 'Split': {
      const x = input(c, layer);
      for (const out of layer.outputs) c.blobs.set(out, x);
      return;
    }
    case 'Convolution':
      return convolution(c, layer);
    case 'PReLU': {
      const x = input(c, layer);
      const count = num(layer, 0, 0);
      const slopes = c.reader.raw(count, layer);
      const slope = c.g.float32(`${layer.name}/slope`, count === 1 ? [1] : [count, 1, 1], slopes);
      c.set(layer, { ...x, name: c.emit(layer, 'PRelu', [x.name, slope]) });
      return;
    }
    case 'Concat':
      return concat(c, layer);
    case 'Eltwise':
      return eltwise(c, layer);
    case 'BinaryOp':
      return binaryOp(c, layer);
    case 'Interp':
      return interp(c, layer);
    case 'PixelShuffle':
      return pixelShuffle(c, layer);
    default:
      throw new UnsupportedLayerError(layer, 'layer type not supported');
  }
}

function input(c: NcnnConversion, layer: NcnnLayer, i = 0): Blob {
  const name = layer.inputs[i];
  const b = name === undefined ? undefined : c.blobs.get(name);
  if (!b) throw new UnsupportedLayerError(layer, `input blob ${name ?? `#${i}`} is not produced by an earlier layer`);
  return b;
}

const allInputs = (c: NcnnConversion, layer: NcnnLayer): Blob[] => layer.inputs.map((_, i) => input(c, layer, i));

function sameScale(layer: NcnnLayer, xs: Blob[]): number {
  if (xs.some((x) => x.scale !== xs[0]!.scale)) throw new UnsupportedLayerError(layer, 'inputs at different scales');
  return xs[0]!.scale;
}

/** A blob of several inputs of the same scale: the widest reach among them. */
const joined = (layer: NcnnLayer, xs: Blob[], name: string, channels: number): Blob => ({
  name,
  channels,
  scale: sameScale(layer, xs),
  radius: Math.max(...xs.map((x) => x.radius)),
});

function convolution(c: NcnnConversion, layer: NcnnLayer): void {
  const p = (key: number, fallback: number) => num(layer, key, fallback);
  const x = input(c, layer);
  const filters = p(CONV.filters, 0);
  const kw = p(CONV.kernelW, 0);
  const kh = p(CONV.kernelH, kw);
  const [dw, dh] = [p(CONV.dilationW, 1), p(CONV.dilationH, p(CONV.dilationW, 1))];
  const [sw, sh] = [p(CONV.strideW, 1), p(CONV.strideH, p(CONV.strideW, 1))];
  const left = p(CONV.padLeft, 0);
  const [right, top] = [p(CONV.padRight, left), p(CONV.padTop, left)];
  const bottom = p(CONV.padBottom, top);
  const size = p(CONV.weightSize, 0);
  if (p(CONV.int8, 0) !== 0) throw new UnsupportedLayerError(layer, 'int8 quantised convolutions are not supported');
  if ([left, right, top, bottom].some((v) => v < 0))
    throw new UnsupportedLayerError(layer, 'automatic (negative) padding is not supported');
  if (p(CONV.padValue, 0) !== 0) throw new UnsupportedLayerError(layer, 'non-zero pad value is not supported');
  const cin = size / (filters * kh * kw);
  if (!Number.isInteger(cin) || cin !== x.channels)
    throw new UnsupportedLayerError(layer, `weight size ${size} does not fit ${filters}x${x.channels}x${kh}x${kw}`);
  const weights = c.reader.tagged(size, layer);
  const w = c.g.float32(`${layer.name}/weight`, [filters, cin, kh, kw], weights);
  const inputs = [x.name, w];
  if (p(CONV.biasTerm, 0) === 1)
    inputs.push(c.g.float32(`${layer.name}/bias`, [filters], c.reader.raw(filters, layer)));
  const activation = p(CONV.activation, FUSED.none);
  if (sw !== 1 || sh !== 1) throw new UnsupportedLayerError(layer, 'strided convolutions are not supported');
  if (!(Object.values(FUSED) as number[]).includes(activation))
    throw new UnsupportedLayerError(layer, `fused activation type ${activation} not supported`);
  const conv = c.emit(
    layer,
    'Conv',
    inputs,
    { kernel_shape: [kh, kw], pads: [top, left, bottom, right], strides: [sh, sw], dilations: [dh, dw] },
    activation === FUSED.none,
  );
  let out = conv;
  if (activation === FUSED.relu) out = c.emit(layer, 'Relu', [conv]);
  else if (activation === FUSED.leakyRelu)
    out = c.emit(layer, 'LeakyRelu', [conv], { alpha: float(arr(layer, CONV.activationParams)[0] ?? 0) });
  else if (activation === FUSED.sigmoid) out = c.emit(layer, 'Sigmoid', [conv]);
  // A tap k pixels away at scale s lands at most ceil(k / s) input pixels away.
  const reach = Math.max(((kw - 1) / 2) * dw, ((kh - 1) / 2) * dh, left, top);
  c.set(layer, { name: out, channels: filters, scale: x.scale, radius: x.radius + Math.ceil(reach / x.scale) });
}

function concat(c: NcnnConversion, layer: NcnnLayer): void {
  const xs = allInputs(c, layer);
  if (num(layer, 0, 0) !== 0)
    throw new UnsupportedLayerError(layer, 'only channel concatenation (axis 0) is supported');
  const name = c.emit(
    layer,
    'Concat',
    xs.map((x) => x.name),
    { axis: 1 },
  );
  c.set(
    layer,
    joined(
      layer,
      xs,
      name,
      xs.reduce((s, x) => s + x.channels, 0),
    ),
  );
}

function eltwise(c: NcnnConversion, layer: NcnnLayer): void {
  const xs = allInputs(c, layer);
  const op = num(layer, 0, ELTWISE_SUM);
  const coeffs = arr(layer, 1);
  const opName = ELTWISE_OPS[op];
  if (!opName) throw new UnsupportedLayerError(layer, `eltwise operation ${op} not supported`);
  if (op !== ELTWISE_SUM && coeffs.length > 0)
    throw new UnsupportedLayerError(layer, 'coefficients only apply to sums');
  const terms = xs.map((x, i) => {
    const k = coeffs[i] ?? 1;
    return k === 1
      ? x.name
      : c.emit(layer, 'Mul', [x.name, c.g.float32(`${layer.name}/coeff${i}`, [], [k])], {}, false);
  });
  const name = xs.length === 2 && op === ELTWISE_SUM ? c.emit(layer, 'Add', terms) : c.emit(layer, opName, terms);
  c.set(layer, joined(layer, xs, name, xs[0]!.channels));
}

function binaryOp(c: NcnnConversion, layer: NcnnLayer): void {
  const opName = BINARY_OPS[num(layer, 0, 0)];
  if (!opName) throw new UnsupportedLayerError(layer, `binary operation ${num(layer, 0, 0)} not supported`);
  // Key 1 set: the second operand is the scalar in key 2.
  if (num(layer, 1, 0) === 1) {
    const x = input(c, layer);
    const b = c.g.float32(`${layer.name}/b`, [], [num(layer, 2, 0)]);
    c.set(layer, { ...x, name: c.emit(layer, opName, [x.name, b]) });
    return;
  }
  const xs = allInputs(c, layer);
  if (xs.length !== 2) throw new UnsupportedLayerError(layer, 'needs two inputs');
  const name = c.emit(
    layer,
    opName,
    xs.map((x) => x.name),
  );
  c.set(layer, joined(layer, xs, name, Math.max(...xs.map((x) => x.channels))));
}

function interp(c: NcnnConversion, layer: NcnnLayer): void {
  const p = (key: number, fallback: number) => num(layer, key, fallback);
  const x = input(c, layer);
  const type = p(INTERP.type, 0);
  const [sy, sx] = [p(INTERP.scaleH, 1), p(INTERP.scaleW, 1)];
  if (p(INTERP.outH, 0) !== 0 || p(INTERP.outW, 0) !== 0 || p(INTERP.dynamic, 0) !== 0)
    throw new UnsupportedLayerError(layer, 'only resizing by scale factors is supported');
  if (sy !== sx) throw new UnsupportedLayerError(layer, 'only equal scale factors are supported');
  const align = p(INTERP.alignCorners, 0) === 1;
  const scales = c.g.float32(`${layer.name}/scales`, [4], [1, 1, sy, sx]);
  // ncnn: nearest takes floor(dst / scale) (ONNX asymmetric/floor); bilinear and bicubic use half-pixel
  // centres (or aligned corners), bicubic with a = -0.75 and edge pixels repeated, as ONNX Resize does.
  let attrs: Attrs;
  let taps: number;
  if (type === RESIZE.nearest) {
    attrs = { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' };
    taps = 0;
  } else if (type === RESIZE.bilinear || type === RESIZE.bicubic) {
    attrs = {
      mode: type === RESIZE.bilinear ? 'linear' : 'cubic',
      coordinate_transformation_mode: align ? 'align_corners' : 'half_pixel',
      ...(type === RESIZE.bicubic ? { cubic_coeff_a: BICUBIC_A } : {}),
    };
    taps = type === RESIZE.bilinear ? 1 : 2;
  } else {
    throw new UnsupportedLayerError(layer, `interpolation type ${type} not supported`);
  }
  const name = c.emit(layer, 'Resize', [x.name, '', scales], attrs);
  c.set(layer, { name, channels: x.channels, scale: x.scale * sx, radius: x.radius + Math.ceil(taps / x.scale) });
}

function pixelShuffle(c: NcnnConversion, layer: NcnnLayer): void {
  const x = input(c, layer);
  const r = num(layer, 0, 1);
  // ncnn mode 0 is PyTorch's pixel shuffle: channel c*r*r + i*r + j -> ONNX DepthToSpace CRD.
  const mode = num(layer, 1, 0) === 0 ? 'CRD' : 'DCR';
  if (x.channels % (r * r) !== 0)
    throw new UnsupportedLayerError(layer, `${x.channels} channels do not split into ${r}x${r} blocks`);
  c.set(layer, {
    name: c.emit(layer, 'DepthToSpace', [x.name], { blocksize: r, mode }),
    channels: x.channels / (r * r),
    scale: x.scale * r,
    radius: x.radius,
  });
}
