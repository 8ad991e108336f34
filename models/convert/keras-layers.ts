import type { GraphBuilder } from '../onnx';
import { type KerasLayer, UnsupportedLayerError, type Value, hwioToOihw, pair } from './keras-model';
import { foldUpsampleIntoConv, foldsUpsampling } from './upsample-fold';

/** One Keras layer at a time into ONNX nodes (convertLayersModel walks the layers in order). */

/** Adds one node, counting its op; `output` names its output (the model's output name), else one is made up. */
export type Emit = (
  op: string,
  inputs: string[],
  attrs: Parameters<GraphBuilder['node']>[2],
  output?: string,
) => string;

/** What every layer's conversion shares: the graph, its weights, and who reads each layer. */
export interface Conversion {
  g: GraphBuilder;
  emit: Emit;
  /** A layer's weight (`kernel`, `bias`), marked used. */
  weight(layer: KerasLayer, suffix: string): { shape: number[]; data: Float32Array };
  /** Who reads each layer's output: an upsampling is folded only into its single consumer. */
  consumers: Map<string, KerasLayer[]>;
  inputName: string;
  inputLayerName: string;
}

/** One layer's call: its inputs, and the output name when it is the model's output layer. */
interface Call {
  layer: KerasLayer;
  inbound: Value[];
  out: string | undefined;
}

/** MultiplyBeta's factor when the layer does not say (ESRGAN's residual scaling). */
const DEFAULT_BETA = 0.2;
/** Keras's channel axis (NHWC), as the last or the fourth. */
const CHANNEL_AXES = [3, -1];
/** ONNX's channel axis (NCHW). */
const ONNX_CHANNEL_AXIS = 1;

const ACTIVATIONS: Record<string, string> = { relu: 'Relu', sigmoid: 'Sigmoid', tanh: 'Tanh', linear: 'Identity' };

/** The layer converted: the value its output is. */
export function convertLayer(c: Conversion, call: Call): Value {
  const { layer, inbound, out } = call;
  switch (layer.class_name) {
    case 'InputLayer':
      return inputLayer(c, layer);
    case 'Conv2D':
      return conv2d(c, layer, single(call), out);
    case 'Activation': {
      const x = single(call);
      return { ...x, name: applyActivation(layer, layer.config.activation as string, x.name, c.emit, out) };
    }
    case 'Concatenate':
      return concatenate(c, call);
    case 'Add': {
      if (inbound.length < 2) throw new UnsupportedLayerError(layer, 'Add needs at least 2 inputs');
      const name = c.emit(
        inbound.length === 2 ? 'Add' : 'Sum',
        inbound.map((v) => v.name),
        {},
        out,
      );
      return {
        name,
        channels: (inbound[0] as Value).channels,
        scale: sameScale(layer, inbound),
        radius: Math.max(...inbound.map((v) => v.radius)),
      };
    }
    case 'UpSampling2D':
      return upSampling(c, layer, single(call), out);
    case 'MultiplyBeta': {
      const x = single(call);
      const beta = typeof layer.config.beta === 'number' ? layer.config.beta : DEFAULT_BETA;
      const name = c.emit('Mul', [x.name, c.g.float32(`${layer.name}/beta`, [], [beta])], {}, out);
      return { ...x, name };
    }
    default:
      return pixelShuffle(c, call);
  }
}

function single({ layer, inbound }: Call): Value {
  if (inbound.length !== 1) throw new UnsupportedLayerError(layer, `expected 1 input, got ${inbound.length}`);
  return inbound[0] as Value;
}

function inputLayer(c: Conversion, layer: KerasLayer): Value {
  if (layer.name !== c.inputLayerName) throw new UnsupportedLayerError(layer, 'unexpected extra input');
  const shape = layer.config.batch_input_shape as (number | null)[];
  const channels = shape?.[3];
  if (!Array.isArray(shape) || shape.length !== 4 || typeof channels !== 'number')
    throw new UnsupportedLayerError(layer, `expected an NHWC input with known channels, got ${JSON.stringify(shape)}`);
  c.g.input(c.inputName, 'float32', [1, channels, 'height', 'width']);
  return { name: c.inputName, channels, scale: 1, radius: 0 };
}

/** The supported Conv2D's kernel size and padding; anything else refused. */
function convShape(layer: KerasLayer): { kh: number; kw: number; pads: number[] } {
  const cfg = layer.config;
  const [kh, kw] = pair(cfg.kernel_size, 'kernel_size', layer);
  const strides = pair(cfg.strides ?? 1, 'strides', layer);
  const dilation = pair(cfg.dilation_rate ?? 1, 'dilation_rate', layer);
  if (strides[0] !== 1 || strides[1] !== 1) throw new UnsupportedLayerError(layer, 'only stride 1 is supported');
  if (dilation[0] !== 1 || dilation[1] !== 1) throw new UnsupportedLayerError(layer, 'dilation is not supported');
  if ((cfg.groups ?? 1) !== 1) throw new UnsupportedLayerError(layer, 'grouped convolution is not supported');
  if ((cfg.data_format ?? 'channels_last') !== 'channels_last')
    throw new UnsupportedLayerError(layer, 'only channels_last is supported');
  // TF 'same' at stride 1 pads k-1 in total, the smaller half first; 'valid' pads nothing.
  let pads = [0, 0, 0, 0];
  if (cfg.padding === 'same')
    pads = [Math.floor((kh - 1) / 2), Math.floor((kw - 1) / 2), Math.ceil((kh - 1) / 2), Math.ceil((kw - 1) / 2)];
  else if (cfg.padding !== 'valid') throw new UnsupportedLayerError(layer, `padding ${String(cfg.padding)}`);
  return { kh, kw, pads };
}

function conv2d(c: Conversion, layer: KerasLayer, x: Value, out: string | undefined): Value {
  const cfg = layer.config;
  const { kh, kw, pads } = convShape(layer);
  const filters = cfg.filters as number;
  const kernel = c.weight(layer, 'kernel');
  if (kernel.shape.join() !== [kh, kw, x.channels, filters].join())
    throw new UnsupportedLayerError(
      layer,
      `kernel shape ${kernel.shape} does not match [${kh},${kw},${x.channels},${filters}]`,
    );
  const bias = cfg.use_bias === false ? new Float32Array(filters) : c.weight(layer, 'bias').data;
  const oihw = hwioToOihw(kernel.data, kh, kw, x.channels, filters);
  const activation = (cfg.activation as string | undefined) ?? 'linear';
  const last = activation === 'linear' ? out : undefined;
  let node: string;
  if (x.pendingUpsample) {
    const folded = foldUpsampleIntoConv(oihw, bias, filters, x.channels, kh, kw, x.pendingUpsample);
    const k = c.g.float32(`${layer.name}/kernel`, [folded.filters, x.channels, folded.kh, folded.kw], folded.kernel);
    const b = c.g.float32(`${layer.name}/bias`, [folded.filters], folded.bias);
    const [ph, pw] = [(folded.kh - 1) / 2, (folded.kw - 1) / 2];
    const conv = c.emit('Conv', [x.name, k, b], {
      kernel_shape: [folded.kh, folded.kw],
      pads: [ph, pw, ph, pw],
      strides: [1, 1],
      dilations: [1, 1],
    });
    node = c.emit('DepthToSpace', [conv], { blocksize: x.pendingUpsample, mode: 'DCR' }, last);
  } else {
    const k = c.g.float32(`${layer.name}/kernel`, [filters, x.channels, kh, kw], oihw);
    const b = c.g.float32(`${layer.name}/bias`, [filters], bias);
    node = c.emit('Conv', [x.name, k, b], { kernel_shape: [kh, kw], pads, strides: [1, 1], dilations: [1, 1] }, last);
  }
  const name = activation === 'linear' ? node : applyActivation(layer, activation, node, c.emit, out);
  return { name, channels: filters, scale: x.scale, radius: x.radius + Math.max(kh - 1, kw - 1) / 2 / x.scale };
}

function concatenate(c: Conversion, { layer, inbound, out }: Call): Value {
  const axis = layer.config.axis as number;
  if (!CHANNEL_AXES.includes(axis))
    throw new UnsupportedLayerError(layer, `only channel concatenation is supported (axis ${axis})`);
  const name = c.emit(
    'Concat',
    inbound.map((v) => v.name),
    { axis: ONNX_CHANNEL_AXIS },
    out,
  );
  return {
    name,
    channels: inbound.reduce((s, v) => s + v.channels, 0),
    scale: sameScale(layer, inbound),
    radius: Math.max(...inbound.map((v) => v.radius)),
  };
}

function upSampling(c: Conversion, layer: KerasLayer, x: Value, out: string | undefined): Value {
  const cfg = layer.config;
  const [sh, sw] = pair(cfg.size, 'size', layer);
  if ((cfg.interpolation ?? 'nearest') !== 'nearest')
    throw new UnsupportedLayerError(
      layer,
      `only nearest interpolation is supported (got ${String(cfg.interpolation)})`,
    );
  if (sh !== sw) throw new UnsupportedLayerError(layer, 'only square upsampling is supported');
  const readers = c.consumers.get(layer.name) ?? [];
  if (!out && readers.length === 1 && foldsUpsampling(readers[0]!))
    return { ...x, scale: x.scale * sh, pendingUpsample: sh };
  const scales = c.g.float32(`${layer.name}/scales`, [4], [1, 1, sh, sw]);
  // Keras nearest upsampling repeats each pixel: source index = floor(dst / factor).
  const name = c.emit(
    'Resize',
    [x.name, '', scales],
    { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' },
    out,
  );
  return { name, channels: x.channels, scale: x.scale * sh, radius: x.radius };
}

/** ESRGAN's PixelShuffle<N>x custom layers; any other layer type is refused here. */
function pixelShuffle(c: Conversion, call: Call): Value {
  const { layer, out } = call;
  const shuffle = /^PixelShuffle(\d+)x$/.exec(layer.class_name);
  if (!shuffle) throw new UnsupportedLayerError(layer, 'layer type not supported');
  const x = single(call);
  const block = typeof layer.config.scale === 'number' ? layer.config.scale : Number(shuffle[1]);
  if (x.channels % (block * block) !== 0)
    throw new UnsupportedLayerError(layer, `${x.channels} channels do not split into ${block}x${block} blocks`);
  // TF depth_to_space is depth-column-row ordered: ONNX mode DCR (PyTorch's pixel shuffle would be CRD).
  const name = c.emit('DepthToSpace', [x.name], { blocksize: block, mode: 'DCR' }, out);
  return { name, channels: x.channels / (block * block), scale: x.scale * block, radius: x.radius };
}

function applyActivation(layer: KerasLayer, activation: string, input: string, emit: Emit, out?: string): string {
  const op = ACTIVATIONS[activation];
  if (!op) throw new UnsupportedLayerError(layer, `activation ${activation} not supported`);
  return emit(op, [input], {}, out);
}

function sameScale(layer: KerasLayer, inputs: Value[]): number {
  const scale = (inputs[0] as Value).scale;
  if (inputs.some((v) => v.scale !== scale)) throw new UnsupportedLayerError(layer, 'inputs at different scales');
  return scale;
}
