import { DATA_TYPES } from '../onnx/proto';
import { type GraphMsg, type NodeMsg, type TensorMsg, dimsOf, floatValues } from './onnx-graph';

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
