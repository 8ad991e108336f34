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
import { ATTRIBUTE_TYPES, DATA_TYPES } from '../onnx/proto';
import {
  type GraphMsg,
  type NodeMsg,
  type TensorMsg,
  decode,
  dimsOf,
  encode,
  floatValues,
  graphOf,
  pruneOutputs,
  rawTensor,
} from './onnx-graph';
import { rewritePRelu } from './prelu-rewrite';
import { activationParams, quantizeBias, quantizeWeights } from './quant-math';
import { type QuantizationPlan, type QuantizeOptions, type Range, planQuantization } from './quant-plan';

export { decode, graphOf } from './onnx-graph';
export { activationParams, quantizeBias, quantizeWeights, roundHalfEven } from './quant-math';
export { type QuantizationPlan, type QuantizeOptions, type Range } from './quant-plan';

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

/** The quantization plan of `fp32Bytes` under `options` (the tensors calibration must cover). */
export function planFor(fp32Bytes: Uint8Array, options: QuantizeOptions = {}): QuantizationPlan {
  const graph = graphOf(decode(fp32Bytes));
  prepareFloatGraph(graph, options);
  return planQuantization(graph, options);
}
