// Converts a TF.js layers model (model.json + weight shards) of the ESRGAN family to ONNX: NHWC Keras layers
// become NCHW ONNX ops, with kernels permuted HWIO -> OIHW. Supported layers: InputLayer, Conv2D (stride 1,
// no dilation, 'same' or 'valid'), Activation, Concatenate, Add, UpSampling2D (nearest), and the ESRGAN custom
// layers MultiplyBeta (x * beta) and PixelShuffle<N>x (TF depth_to_space = ONNX DepthToSpace mode DCR).
// Anything else is refused with the layer's name rather than converted approximately.
// One rewrite, exact up to float rounding: a nearest UpSampling2D whose only consumer is a 'same' Conv2D
// becomes a convolution at the low resolution followed by DepthToSpace (foldUpsampleIntoConv).
import { type Dim, GraphBuilder } from '../onnx';

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

interface ModelConfig {
  class_name: string;
  config: {
    name?: string;
    layers: KerasLayer[];
    input_layers: [string, number, number][];
    output_layers: [string, number, number][];
  };
}

interface KerasLayer {
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
interface Value {
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

/** Whether a layer is a convolution an upsampling before it can fold into (see foldUpsampleIntoConv). */
function foldsUpsampling(layer: KerasLayer): boolean {
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

const pair = (v: unknown, what: string, layer: KerasLayer): [number, number] => {
  if (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n)))
    return [v[0] as number, v[1] as number];
  if (Number.isInteger(v)) return [v as number, v as number];
  throw new UnsupportedLayerError(layer, `bad ${what} ${JSON.stringify(v)}`);
};

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

/** Converts a TF.js layers model with its weights into an NCHW float32 ONNX model with dynamic height/width. */
export function convertLayersModel(
  model: LayersModelJson,
  readShard: (path: string) => Uint8Array,
  options: ConvertOptions = {},
): ConvertedModel {
  if (model.format && model.format !== 'layers-model')
    throw new Error(`expected a layers-model, got "${model.format}"`);
  const topology = 'model_config' in model.modelTopology ? model.modelTopology.model_config : model.modelTopology;
  const { config } = topology;
  if (config.input_layers.length !== 1 || config.output_layers.length !== 1)
    throw new Error('only single-input, single-output models are supported');
  const weights = readWeights(model.weightsManifest, readShard);
  const used = new Set<string>();
  const weight = (layer: KerasLayer, suffix: string): { shape: number[]; data: Float32Array } => {
    const w = weights.get(`${layer.name}/${suffix}`);
    if (!w) throw new UnsupportedLayerError(layer, `weight ${layer.name}/${suffix} not found`);
    used.add(`${layer.name}/${suffix}`);
    return w;
  };

  const inputName = options.inputName ?? 'input';
  const outputName = options.outputName ?? 'output';
  const [inputLayerName] = config.input_layers[0] as [string, number, number];
  const [outputLayerName] = config.output_layers[0] as [string, number, number];
  const g = new GraphBuilder(config.name ?? 'model');
  const values = new Map<string, Value>();
  // Who reads each layer's output: an upsampling is folded only into its single consumer.
  const consumers = new Map<string, KerasLayer[]>();
  for (const layer of config.layers) {
    for (const [name] of layer.inbound_nodes[0] ?? []) consumers.set(name, [...(consumers.get(name) ?? []), layer]);
  }
  const ops: Record<string, number> = {};
  const emit = (op: string, inputs: string[], attrs: Parameters<GraphBuilder['node']>[2], output?: string): string => {
    ops[op] = (ops[op] ?? 0) + 1;
    return g.node(op, inputs, attrs, output ? { output } : {});
  };

  for (const layer of config.layers) {
    if (layer.inbound_nodes.length > 1)
      throw new UnsupportedLayerError(layer, 'shared layers (called more than once) are not supported');
    const inbound = (layer.inbound_nodes[0] ?? []).map(([name, nodeIndex, tensorIndex]) => {
      const v = values.get(name);
      if (!v || nodeIndex !== 0 || tensorIndex !== 0)
        throw new UnsupportedLayerError(layer, `input ${name}[${nodeIndex}][${tensorIndex}] is not available`);
      return v;
    });
    const single = (): Value => {
      if (inbound.length !== 1) throw new UnsupportedLayerError(layer, `expected 1 input, got ${inbound.length}`);
      return inbound[0] as Value;
    };
    const cfg = layer.config;
    // The model's output layer writes straight to the ONNX output name.
    const out = layer.name === outputLayerName ? outputName : undefined;
    let result: Value;

    switch (layer.class_name) {
      case 'InputLayer': {
        if (layer.name !== inputLayerName) throw new UnsupportedLayerError(layer, 'unexpected extra input');
        const shape = cfg.batch_input_shape as (number | null)[];
        const channels = shape?.[3];
        if (!Array.isArray(shape) || shape.length !== 4 || typeof channels !== 'number')
          throw new UnsupportedLayerError(
            layer,
            `expected an NHWC input with known channels, got ${JSON.stringify(shape)}`,
          );
        g.input(inputName, 'float32', [1, channels, 'height', 'width']);
        result = { name: inputName, channels, scale: 1, radius: 0 };
        break;
      }
      case 'Conv2D': {
        const x = single();
        const [kh, kw] = pair(cfg.kernel_size, 'kernel_size', layer);
        const strides = pair(cfg.strides ?? 1, 'strides', layer);
        const dilation = pair(cfg.dilation_rate ?? 1, 'dilation_rate', layer);
        if (strides[0] !== 1 || strides[1] !== 1) throw new UnsupportedLayerError(layer, 'only stride 1 is supported');
        if (dilation[0] !== 1 || dilation[1] !== 1) throw new UnsupportedLayerError(layer, 'dilation is not supported');
        if ((cfg.groups ?? 1) !== 1) throw new UnsupportedLayerError(layer, 'grouped convolution is not supported');
        if ((cfg.data_format ?? 'channels_last') !== 'channels_last')
          throw new UnsupportedLayerError(layer, 'only channels_last is supported');
        const filters = cfg.filters as number;
        const kernel = weight(layer, 'kernel');
        if (kernel.shape.join() !== [kh, kw, x.channels, filters].join())
          throw new UnsupportedLayerError(
            layer,
            `kernel shape ${kernel.shape} does not match [${kh},${kw},${x.channels},${filters}]`,
          );
        const bias = cfg.use_bias === false ? new Float32Array(filters) : weight(layer, 'bias').data;
        // TF 'same' at stride 1 pads k-1 in total, the smaller half first; 'valid' pads nothing.
        let pads = [0, 0, 0, 0];
        if (cfg.padding === 'same')
          pads = [Math.floor((kh - 1) / 2), Math.floor((kw - 1) / 2), Math.ceil((kh - 1) / 2), Math.ceil((kw - 1) / 2)];
        else if (cfg.padding !== 'valid') throw new UnsupportedLayerError(layer, `padding ${String(cfg.padding)}`);
        const oihw = hwioToOihw(kernel.data, kh, kw, x.channels, filters);
        const activation = (cfg.activation as string | undefined) ?? 'linear';
        let name: string;
        if (x.pendingUpsample) {
          const folded = foldUpsampleIntoConv(oihw, bias, filters, x.channels, kh, kw, x.pendingUpsample);
          const k = g.float32(
            `${layer.name}/kernel`,
            [folded.filters, x.channels, folded.kh, folded.kw],
            folded.kernel,
          );
          const b = g.float32(`${layer.name}/bias`, [folded.filters], folded.bias);
          const [ph, pw] = [(folded.kh - 1) / 2, (folded.kw - 1) / 2];
          const conv = emit('Conv', [x.name, k, b], {
            kernel_shape: [folded.kh, folded.kw],
            pads: [ph, pw, ph, pw],
            strides: [1, 1],
            dilations: [1, 1],
          });
          const shuffled = emit(
            'DepthToSpace',
            [conv],
            { blocksize: x.pendingUpsample, mode: 'DCR' },
            activation === 'linear' ? out : undefined,
          );
          name = activation === 'linear' ? shuffled : applyActivation(layer, activation, shuffled, emit, out);
        } else {
          const k = g.float32(`${layer.name}/kernel`, [filters, x.channels, kh, kw], oihw);
          const b = g.float32(`${layer.name}/bias`, [filters], bias);
          const conv = emit(
            'Conv',
            [x.name, k, b],
            { kernel_shape: [kh, kw], pads, strides: [1, 1], dilations: [1, 1] },
            activation === 'linear' ? out : undefined,
          );
          name = activation === 'linear' ? conv : applyActivation(layer, activation, conv, emit, out);
        }
        result = { name, channels: filters, scale: x.scale, radius: x.radius + Math.max(kh - 1, kw - 1) / 2 / x.scale };
        break;
      }
      case 'Activation': {
        const x = single();
        result = { ...x, name: applyActivation(layer, cfg.activation as string, x.name, emit, out) };
        break;
      }
      case 'Concatenate': {
        const axis = cfg.axis as number;
        if (axis !== 3 && axis !== -1)
          throw new UnsupportedLayerError(layer, `only channel concatenation is supported (axis ${axis})`);
        const name = emit(
          'Concat',
          inbound.map((v) => v.name),
          { axis: 1 },
          out,
        );
        result = {
          name,
          channels: inbound.reduce((s, v) => s + v.channels, 0),
          scale: sameScale(layer, inbound),
          radius: Math.max(...inbound.map((v) => v.radius)),
        };
        break;
      }
      case 'Add': {
        if (inbound.length < 2) throw new UnsupportedLayerError(layer, 'Add needs at least 2 inputs');
        const name = emit(
          inbound.length === 2 ? 'Add' : 'Sum',
          inbound.map((v) => v.name),
          {},
          out,
        );
        result = {
          name,
          channels: (inbound[0] as Value).channels,
          scale: sameScale(layer, inbound),
          radius: Math.max(...inbound.map((v) => v.radius)),
        };
        break;
      }
      case 'UpSampling2D': {
        const x = single();
        const [sh, sw] = pair(cfg.size, 'size', layer);
        if ((cfg.interpolation ?? 'nearest') !== 'nearest')
          throw new UnsupportedLayerError(
            layer,
            `only nearest interpolation is supported (got ${String(cfg.interpolation)})`,
          );
        if (sh !== sw) throw new UnsupportedLayerError(layer, 'only square upsampling is supported');
        const readers = consumers.get(layer.name) ?? [];
        if (!out && readers.length === 1 && foldsUpsampling(readers[0]!)) {
          result = { ...x, scale: x.scale * sh, pendingUpsample: sh };
          break;
        }
        const scales = g.float32(`${layer.name}/scales`, [4], [1, 1, sh, sw]);
        // Keras nearest upsampling repeats each pixel: source index = floor(dst / factor).
        const name = emit(
          'Resize',
          [x.name, '', scales],
          { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' },
          out,
        );
        result = { name, channels: x.channels, scale: x.scale * sh, radius: x.radius };
        break;
      }
      case 'MultiplyBeta': {
        const x = single();
        const beta = typeof cfg.beta === 'number' ? cfg.beta : 0.2;
        const name = emit('Mul', [x.name, g.float32(`${layer.name}/beta`, [], [beta])], {}, out);
        result = { ...x, name };
        break;
      }
      default: {
        const shuffle = /^PixelShuffle(\d+)x$/.exec(layer.class_name);
        if (!shuffle) throw new UnsupportedLayerError(layer, 'layer type not supported');
        const x = single();
        const block = typeof cfg.scale === 'number' ? cfg.scale : Number(shuffle[1]);
        if (x.channels % (block * block) !== 0)
          throw new UnsupportedLayerError(layer, `${x.channels} channels do not split into ${block}x${block} blocks`);
        // TF depth_to_space is depth-column-row ordered: ONNX mode DCR (PyTorch's pixel shuffle would be CRD).
        const name = emit('DepthToSpace', [x.name], { blocksize: block, mode: 'DCR' }, out);
        result = { name, channels: x.channels / (block * block), scale: x.scale * block, radius: x.radius };
      }
    }
    values.set(layer.name, result);
  }

  const final = values.get(outputLayerName);
  if (!final) throw new Error(`output layer ${outputLayerName} was not converted`);
  if (final.name !== outputName) throw new Error(`output layer ${outputLayerName} is not the last op writing it`);
  const unused = [...weights.keys()].filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`weights not used by any layer: ${unused.slice(0, 5).join(', ')}`);
  const outShape: Dim[] = [1, final.channels, `height*${final.scale}`, `width*${final.scale}`];
  g.output(outputName, 'float32', outShape);
  const onnx = g.toModel({
    opset: 17,
    producerName: 'imagestudio-models tfjs-layers converter',
    docString: options.docString ?? '',
    metadata: options.metadata,
  });
  return {
    onnx,
    inputName,
    outputName,
    inputChannels: (values.get(inputLayerName) as Value).channels,
    outputChannels: final.channels,
    scale: final.scale,
    receptiveRadius: Math.ceil(final.radius),
    ops,
  };
}

function applyActivation(
  layer: KerasLayer,
  activation: string,
  input: string,
  emit: (op: string, inputs: string[], attrs: Record<string, never>, output?: string) => string,
  out?: string,
): string {
  const op = ({ relu: 'Relu', sigmoid: 'Sigmoid', tanh: 'Tanh', linear: 'Identity' } as Record<string, string>)[
    activation
  ];
  if (!op) throw new UnsupportedLayerError(layer, `activation ${activation} not supported`);
  return emit(op, [input], {}, out);
}

function sameScale(layer: KerasLayer, inputs: Value[]): number {
  const scale = (inputs[0] as Value).scale;
  if (inputs.some((v) => v.scale !== scale)) throw new UnsupportedLayerError(layer, 'inputs at different scales');
  return scale;
}
