import { DATA_TYPES } from '../onnx/proto';
import { type GraphMsg, type NodeMsg, dimsOf } from './onnx-graph';

/** What the quantizer is asked (QuantizeOptions) and what it decides to quantize (planQuantization). */

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
