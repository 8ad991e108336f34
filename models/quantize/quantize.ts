// Static int8 quantization of an fp32 ONNX graph into the QDQ form onnxruntime's CPU provider fuses into integer
// convolutions (QLinearConv, u8 activations x s8 weights, VNNI on x86). Pure graph arithmetic: no onnxruntime
// here, so the same fp32 model and the same calibration table always give the same bytes.
//
// The form, as onnxruntime's QDQ selectors require it (onnxruntime/core/optimizer/qdq_transformer/
// selectors_actions/qdq_selectors.cc, ConvNodeGroupSelector):
//   x --QuantizeLinear(u8)--DequantizeLinear--> Conv <--DequantizeLinear-- int8 weight (per output channel, axis 0)
//                                                    <--DequantizeLinear-- int32 bias (scale = s_x * s_w[o], zp 0)
//   Conv [--Relu] --QuantizeLinear(u8)--DequantizeLinear--> every reader of the output
// Every input of the Conv must come from a DequantizeLinear (a float bias makes the selector refuse), its only
// reader must be the QuantizeLinear (or a Relu whose only reader is that Q with zero point 0, which makes the Relu
// redundant and onnxruntime drops it), and it must not produce a graph output. Anything else stays in float
// between a DequantizeLinear and a QuantizeLinear.
import * as protobuf from 'protobufjs';
import { ATTRIBUTE_TYPES, DATA_TYPES, ModelProto } from '../onnx/proto';

type Msg = Record<string, unknown>;
interface NodeMsg {
  name: string;
  opType: string;
  domain?: string;
  input: string[];
  output: string[];
  attribute?: Msg[];
}
interface TensorMsg {
  name: string;
  dims: (number | { toNumber(): number })[];
  dataType: number;
  rawData?: Uint8Array;
  floatData?: number[];
}
interface GraphMsg {
  node: NodeMsg[];
  initializer: TensorMsg[];
  input: Msg[];
  output: { name: string }[];
  valueInfo?: Msg[];
}

/** Calibrated range of one activation tensor (min <= 0 <= max after widening). */
export interface Range {
  min: number;
  max: number;
}

export interface QuantizeOptions {
  /**
   * Conv node names kept in fp32 (the first and last convolutions and whatever measurement says); a name ending
   * in '/' keeps every node whose name starts with it (a whole block of an exported PyTorch model).
   */
  keepFloat?: readonly string[];
  /** Graph outputs to keep (default: all); the others and the nodes only they need are removed. */
  outputs?: readonly string[];
  /** Rewrite PRelu as Max(y, a * y) first (see rewritePRelu). */
  rewritePRelu?: boolean;
}

/** One Conv that gets integer weights, and the tensors around it that get QuantizeLinear/DequantizeLinear. */
export interface ConvPlan {
  node: string;
  input: string;
  /** The tensor quantized after the Conv: its output, or the output of the Relu that is its only reader. */
  output: string;
  weight: string;
  bias?: string;
  relu: boolean;
}

export interface QuantizationPlan {
  convs: ConvPlan[];
  /** Every activation tensor that needs a calibrated range, in graph order. */
  tensors: string[];
  /** Tensors whose range must start at 0 (Relu outputs: the Q's zero point 0 makes the Relu redundant). */
  nonNegative: string[];
  /**
   * Outputs of MaxPool and Resize whose input is quantized: they take their input's scale and zero point (the
   * root tensor named here), so onnxruntime drops the pair around them and runs them on uint8 in its channels-last
   * layout instead of converting to float and back. Not calibrated.
   */
  tied: Record<string, string>;
}

export function decode(bytes: Uint8Array): Msg {
  return ModelProto.decode(bytes) as unknown as Msg;
}
export function encode(model: Msg): Uint8Array {
  return ModelProto.encode(model as unknown as protobuf.Message).finish();
}
export const graphOf = (model: Msg) => model.graph as unknown as GraphMsg;

const dimsOf = (t: TensorMsg) => t.dims.map((d) => (typeof d === 'number' ? d : d.toNumber()));

/** The float32 values of an initializer (raw_data or float_data). */
export function floatValues(t: TensorMsg): Float32Array {
  if (t.dataType !== DATA_TYPES.float32) throw new Error(`initializer ${t.name} is not float32`);
  if (t.rawData && t.rawData.length > 0) {
    const copy = new Uint8Array(t.rawData);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  return Float32Array.from(t.floatData ?? []);
}

function rawTensor(name: string, dataType: number, dims: number[], data: ArrayBufferView): TensorMsg {
  return {
    name,
    dims,
    dataType,
    rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  };
}

/** Round half to even, as QuantizeLinear does. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Keeps only `outputs` as graph outputs and removes the nodes and initializers nothing needs any more. */
export function pruneOutputs(graph: GraphMsg, outputs: readonly string[]): void {
  const missing = outputs.filter((o) => !graph.output.some((g) => g.name === o));
  if (missing.length > 0) throw new Error(`graph has no output ${missing.join(', ')}`);
  graph.output = graph.output.filter((o) => outputs.includes(o.name));
  // Reachability from the kept outputs (node order in the file is not always topological: ISNet's is not).
  const producer = new Map<string, NodeMsg>();
  for (const node of graph.node) for (const o of node.output) producer.set(o, node);
  const needed = new Set(outputs);
  const keptNodes = new Set<NodeMsg>();
  const stack = [...outputs];
  while (stack.length > 0) {
    const node = producer.get(stack.pop()!);
    if (!node || keptNodes.has(node)) continue;
    keptNodes.add(node);
    for (const input of node.input) {
      if (!input) continue;
      needed.add(input);
      stack.push(input);
    }
  }
  graph.node = graph.node.filter((n) => keptNodes.has(n));
  graph.initializer = graph.initializer.filter((t) => needed.has(t.name));
}

/** Which convolutions get integer weights and which tensors need a range (see the file comment for the form). */
export function planQuantization(graph: GraphMsg, options: QuantizeOptions = {}): QuantizationPlan {
  const inits = new Map(graph.initializer.map((t) => [t.name, t]));
  const readers = new Map<string, NodeMsg[]>();
  for (const node of graph.node)
    for (const input of node.input) if (input) readers.set(input, [...(readers.get(input) ?? []), node]);
  const graphOutputs = new Set(graph.output.map((o) => o.name));
  const keepList = options.keepFloat ?? [];
  const kept = (name: string) => keepList.some((k) => (k.endsWith('/') ? name.startsWith(k) : name === k));
  const unknownKeep = keepList.filter(
    (k) => !graph.node.some((n) => (k.endsWith('/') ? n.name.startsWith(k) : n.name === k)),
  );
  if (unknownKeep.length > 0) throw new Error(`keepFloat names unknown nodes: ${unknownKeep.join(', ')}`);

  const convs: ConvPlan[] = [];
  for (const node of graph.node) {
    if (node.opType !== 'Conv' || kept(node.name)) continue;
    const [input, weight, bias] = node.input;
    if (!input || !weight) continue;
    const w = inits.get(weight);
    if (inits.has(input) || !w || w.dataType !== DATA_TYPES.float32 || dimsOf(w).length !== 4) continue;
    if (bias && inits.get(bias)?.dataType !== DATA_TYPES.float32) continue;
    const out = node.output[0]!;
    if (graphOutputs.has(out)) continue;
    const outReaders = readers.get(out) ?? [];
    const only = outReaders.length === 1 ? outReaders[0]! : undefined;
    const reluOut = only?.opType === 'Relu' && !graphOutputs.has(only.output[0]!) ? only.output[0]! : undefined;
    const relu = reluOut !== undefined;
    convs.push({
      node: node.name,
      input,
      output: reluOut ?? out,
      weight,
      bias: bias || undefined,
      relu,
    });
  }
  const wanted = new Set(convs.flatMap((c) => [c.input, c.output]));
  const tied: Record<string, string> = {};
  const rootOf = (t: string): string | undefined => (wanted.has(t) ? t : tied[t]);
  for (let changed = true; changed;) {
    changed = false;
    for (const node of graph.node) {
      if (node.opType !== 'MaxPool' && node.opType !== 'Resize') continue;
      const out = node.output[0]!;
      const root = rootOf(node.input[0] ?? '');
      if (!root || tied[out] !== undefined || graphOutputs.has(out) || node.output.length !== 1) continue;
      tied[out] = root;
      wanted.delete(out);
      changed = true;
    }
  }
  // Graph order: each tensor's producer position (graph inputs first).
  const order = new Map<string, number>();
  for (const i of graph.input) order.set(String(i.name), -1);
  graph.node.forEach((n, idx) => n.output.forEach((o) => order.set(o, idx)));
  const tensors = [...wanted].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0) || (a < b ? -1 : 1));
  const nonNegative = tensors.filter((t) => graph.node.some((n) => n.opType === 'Relu' && n.output[0] === t));
  return { convs, tensors, nonNegative, tied };
}

/** uint8 scale and zero point of an activation range (widened to include 0, as zero must be exact). */
export function activationParams(range: Range): { scale: number; zeroPoint: number } {
  const min = Math.min(range.min, 0);
  const max = Math.max(range.max, 0);
  const scale = Math.fround(max > min ? (max - min) / 255 : 1);
  const zeroPoint = Math.min(255, Math.max(0, roundHalfEven(-min / scale)));
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
    const s = Math.fround(maxAbs > 0 ? maxAbs / 127 : 1);
    scales[o] = s;
    for (let i = o * per; i < (o + 1) * per; i++) q[i] = Math.max(-127, Math.min(127, roundHalfEven(w[i]! / s)));
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
    q[o] = Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, roundHalfEven(b[o]! / s)));
  }
  return { q, scales };
}

export interface QuantizeResult {
  onnx: Uint8Array;
  plan: QuantizationPlan;
}

/**
 * Returns `fp32Bytes` quantized with the calibrated `ranges` (one per plan tensor). Deterministic: the same model,
 * ranges and options give the same bytes.
 */
export function quantizeModel(
  fp32Bytes: Uint8Array,
  ranges: Record<string, Range>,
  options: QuantizeOptions = {},
): QuantizeResult {
  const model = decode(fp32Bytes);
  const graph = graphOf(model);
  prepareFloatGraph(graph, options);
  const plan = planQuantization(graph, options);
  const missing = plan.tensors.filter((t) => !ranges[t]);
  if (missing.length > 0)
    throw new Error(`no calibrated range for ${missing.length} tensors (${missing.slice(0, 3).join(', ')}...)`);

  const inits = new Map(graph.initializer.map((t) => [t.name, t]));
  const newInits: TensorMsg[] = [];
  const act = new Map<string, { scale: number; zeroPoint: number }>();
  for (const t of plan.tensors) {
    const r = ranges[t]!;
    const params = activationParams(plan.nonNegative.includes(t) ? { min: 0, max: r.max } : r);
    act.set(t, params);
    newInits.push(rawTensor(`${t}/scale`, DATA_TYPES.float32, [], new Float32Array([params.scale])));
    newInits.push(rawTensor(`${t}/zero_point`, DATA_TYPES.uint8, [], new Uint8Array([params.zeroPoint])));
  }
  for (const [t, root] of Object.entries(plan.tied)) act.set(t, act.get(root)!);
  const paramName = (t: string) => plan.tied[t] ?? t;

  // Q/DQ after each quantized tensor's producer (graph inputs: at the start); readers take the DQ output.
  const qdq = (t: string): NodeMsg[] => [
    {
      name: `${t}/QuantizeLinear`,
      opType: 'QuantizeLinear',
      input: [t, `${paramName(t)}/scale`, `${paramName(t)}/zero_point`],
      output: [`${t}/q`],
    },
    {
      name: `${t}/DequantizeLinear`,
      opType: 'DequantizeLinear',
      input: [`${t}/q`, `${paramName(t)}/scale`, `${paramName(t)}/zero_point`],
      output: [`${t}/dq`],
    },
  ];
  const quantized = new Set([...plan.tensors, ...Object.keys(plan.tied)]);
  const convByNode = new Map(plan.convs.map((c) => [c.node, c]));
  const nodes: NodeMsg[] = [];
  for (const t of plan.tensors) if (graph.input.some((i) => i.name === t)) nodes.push(...qdq(t));
  const usedWeights = new Set<string>();
  for (const node of graph.node) {
    node.input = node.input.map((i) => (quantized.has(i) ? `${i}/dq` : i));
    const conv = convByNode.get(node.name);
    if (conv) {
      const w = inits.get(conv.weight)!;
      const dims = dimsOf(w);
      const { q, scales } = quantizeWeights(floatValues(w), dims[0]!);
      const p = `${node.name}/weight`;
      newInits.push(rawTensor(`${p}/int8`, DATA_TYPES.int8, dims, q));
      newInits.push(rawTensor(`${p}/scale`, DATA_TYPES.float32, [dims[0]!], scales));
      newInits.push(rawTensor(`${p}/zero_point`, DATA_TYPES.int8, [dims[0]!], new Int8Array(dims[0]!)));
      nodes.push({
        name: `${p}/DequantizeLinear`,
        opType: 'DequantizeLinear',
        input: [`${p}/int8`, `${p}/scale`, `${p}/zero_point`],
        output: [`${p}/dq`],
        attribute: [{ name: 'axis', type: ATTRIBUTE_TYPES.INT, i: 0 }],
      });
      node.input[1] = `${p}/dq`;
      if (conv.bias) {
        const b = quantizeBias(floatValues(inits.get(conv.bias)!), act.get(conv.input)!.scale, scales);
        const pb = `${node.name}/bias`;
        newInits.push(rawTensor(`${pb}/int32`, DATA_TYPES.int32, [b.q.length], b.q));
        newInits.push(rawTensor(`${pb}/scale`, DATA_TYPES.float32, [b.q.length], b.scales));
        newInits.push(rawTensor(`${pb}/zero_point`, DATA_TYPES.int32, [b.q.length], new Int32Array(b.q.length)));
        nodes.push({
          name: `${pb}/DequantizeLinear`,
          opType: 'DequantizeLinear',
          input: [`${pb}/int32`, `${pb}/scale`, `${pb}/zero_point`],
          output: [`${pb}/dq`],
          attribute: [{ name: 'axis', type: ATTRIBUTE_TYPES.INT, i: 0 }],
        });
        node.input[2] = `${pb}/dq`;
      }
    }
    nodes.push(node);
    for (const i of node.input) usedWeights.add(i);
    for (const o of node.output) if (quantized.has(o)) nodes.push(...qdq(o));
  }
  for (const o of graph.output)
    if (quantized.has(o.name)) throw new Error(`graph output ${o.name} cannot be quantized`);
  graph.node = nodes;
  graph.initializer = [...graph.initializer.filter((t) => usedWeights.has(t.name)), ...newInits];
  // Shapes recorded for the float graph's intermediate values would be stale for renamed ones; drop them all.
  graph.valueInfo = [];
  // QuantizeLinear/DequantizeLinear with per-axis parameters need opset 13.
  for (const o of (model.opsetImport as { domain?: string; version: number | { toNumber(): number } }[]) ?? []) {
    const v = typeof o.version === 'number' ? o.version : o.version.toNumber();
    if (!o.domain && v < 13) throw new Error(`opset ${v} is too old for per-channel DequantizeLinear (needs 13)`);
  }
  return { onnx: encode(model), plan };
}

/** The float graph the quantizer starts from: unwanted outputs pruned, PRelu rewritten when asked. */
export function prepareFloatGraph(graph: GraphMsg, options: QuantizeOptions): void {
  // Unnamed nodes (ISNet has some) are named after their first output, so keepFloat and new names can refer to them.
  for (const node of graph.node) if (!node.name) node.name = `${node.opType}:${node.output[0]}`;
  if (options.outputs) pruneOutputs(graph, options.outputs);
  if (options.rewritePRelu) rewritePRelu(graph);
}

/** The prepared float model (prepareFloatGraph) with `tensors` added as graph outputs, for calibration. */
export function exposeTensors(
  fp32Bytes: Uint8Array,
  tensors: readonly string[],
  options: QuantizeOptions = {},
): Uint8Array {
  const model = decode(fp32Bytes);
  const graph = graphOf(model);
  prepareFloatGraph(graph, options);
  const existing = new Set(graph.output.map((o) => o.name));
  for (const t of tensors)
    if (!existing.has(t))
      graph.output.push({ name: t, type: { tensorType: { elemType: DATA_TYPES.float32 } } } as never);
  return encode(model);
}

/**
 * Rewrites PRelu(y, a) as Max(y, a * y), which is exact for a <= 1 and which onnxruntime runs several times faster
 * than PRelu in the channels-last layout its integer convolutions use (PRelu took more time than all QLinearConvs
 * of realesr-general-x4v3; models/README.md "int8"). Channels with a > 1 need Min instead: their sign is flipped
 * in the producing Conv (weights and bias) and flipped back in every reading Conv's input weights, so
 * s * Max(s * y, a * s * y) = PRelu(y) holds per channel. A PRelu whose producer or readers are not such Convs is
 * left alone when it has a slope above 1. Returns how many PRelu nodes were rewritten.
 */
export function rewritePRelu(graph: GraphMsg): number {
  const inits = new Map(graph.initializer.map((t) => [t.name, t]));
  const producer = new Map<string, NodeMsg>();
  const readers = new Map<string, NodeMsg[]>();
  for (const node of graph.node) {
    for (const o of node.output) producer.set(o, node);
    for (const i of node.input) if (i) readers.set(i, [...(readers.get(i) ?? []), node]);
  }
  const graphOutputs = new Set(graph.output.map((o) => o.name));
  // A Conv's weight initializer, copied once so a shared one is never changed under another reader.
  const ownWeights = (conv: NodeMsg, index: 1 | 2): Float32Array => {
    const name = conv.input[index]!;
    const t = inits.get(name)!;
    const own = `${conv.name}/${index === 1 ? 'weight' : 'bias'}_signed`;
    if (!inits.has(own)) {
      const copy: TensorMsg = {
        name: own,
        dims: dimsOf(t),
        dataType: DATA_TYPES.float32,
        rawData: new Uint8Array(floatValues(t).buffer),
      };
      inits.set(own, copy);
      graph.initializer.push(copy);
      conv.input[index] = own;
    }
    const mine = inits.get(own)!;
    return new Float32Array(mine.rawData!.buffer, mine.rawData!.byteOffset, mine.rawData!.byteLength / 4);
  };
  let rewritten = 0;
  const out: NodeMsg[] = [];
  for (const node of graph.node) {
    const slopeInit = node.opType === 'PRelu' ? inits.get(node.input[1] ?? '') : undefined;
    if (!slopeInit) {
      out.push(node);
      continue;
    }
    const [y, slope] = node.input as [string, string];
    const a = floatValues(slopeInit);
    const flip = [...a].map((v) => v > 1);
    if (flip.some(Boolean)) {
      const conv = producer.get(y);
      const after = readers.get(node.output[0]!) ?? [];
      const convOk = (c: NodeMsg | undefined) =>
        c?.opType === 'Conv' &&
        inits.get(c.input[1] ?? '')?.dataType === DATA_TYPES.float32 &&
        !c.attribute?.some((x) => x.name === 'group' && Number(x.i) !== 1);
      if (
        !convOk(conv) ||
        (readers.get(y) ?? []).length !== 1 ||
        graphOutputs.has(y) ||
        graphOutputs.has(node.output[0]!) ||
        after.length === 0 ||
        !after.every((r) => convOk(r) && r.input[0] === node.output[0] && r.input[1] !== node.output[0])
      ) {
        out.push(node);
        continue;
      }
      const channels = a.length;
      const w = ownWeights(conv!, 1);
      const per = w.length / channels;
      for (let c = 0; c < channels; c++) if (flip[c]) for (let i = c * per; i < (c + 1) * per; i++) w[i] = -w[i]!;
      if (conv!.input[2]) {
        const b = ownWeights(conv!, 2);
        for (let c = 0; c < channels; c++) if (flip[c]) b[c] = -b[c]!;
      }
      for (const r of after) {
        const wr = ownWeights(r, 1);
        const dims = dimsOf(inits.get(r.input[1]!)!);
        const k = dims[2]! * dims[3]!;
        for (let o = 0; o < dims[0]!; o++)
          for (let c = 0; c < channels; c++)
            if (flip[c]) for (let i = (o * channels + c) * k; i < (o * channels + c + 1) * k; i++) wr[i] = -wr[i]!;
      }
    }
    const scaled = `${node.name}/scaled`;
    out.push({ name: `${node.name}/Mul`, opType: 'Mul', input: [y, slope], output: [scaled] });
    out.push({ name: `${node.name}/Max`, opType: 'Max', input: [y, scaled], output: [...node.output] });
    rewritten++;
  }
  graph.node = out;
  return rewritten;
}

/** The quantization plan of `fp32Bytes` under `options` (the tensors calibration must cover). */
export function planFor(fp32Bytes: Uint8Array, options: QuantizeOptions = {}): QuantizationPlan {
  const graph = graphOf(decode(fp32Bytes));
  prepareFloatGraph(graph, options);
  return planQuantization(graph, options);
}
