import { DATA_TYPES } from '../onnx/proto';
import { type NodeMsg, decode, dimsOf, encode, floatValues, graphOf, rawTensor } from '../quantize/onnx-graph';
import { rewritePRelu } from '../quantize/prelu-rewrite';

/**
 * Rewrites every PRelu(y, a) of a float graph as y + Relu((a - 1) * y), which onnxruntime's CPU provider runs in
 * its blocked (NCHWc) layout from the first convolution to the last: the Mul becomes a depthwise 1x1 convolution
 * with the Relu fused into it, the Add stays blocked. PRelu has no blocked kernel, so before this every PRelu cost a
 * reorder out of the layout and one back in besides its own slow pass (models/README.md "PRelu in fp32").
 *
 * y + Relu((a - 1) y) equals PRelu(y, a) for a <= 1 (y > 0: y + 0; y < 0: y + (a - 1) y = a y). Channels with a > 1
 * first get their sign flipped by rewritePRelu (in the producing Conv, and back in the reading Convs' weights),
 * which leaves s * Max(s y, a s y) to compute on the flipped channels; on them the same expression holds with the
 * same a: y' + Relu((a - 1) y') is a y' for y' > 0 and y' for y' < 0, which is Max(y', a y') for a > 1.
 * Not bit-exact (a y is computed as y + (a - 1) y): the difference is float rounding (the test in
 * prelu-nchwc.test.ts bounds it on a real model).
 *
 * Returns the bytes unchanged (the same object) when the graph has no PRelu.
 */
export function preluForBlockedLayout(onnx: Uint8Array): Uint8Array {
  const model = decode(onnx);
  const graph = graphOf(model);
  if (!graph.node.some((n) => n.opType === 'PRelu')) return onnx;
  const rewritten = rewritePRelu(graph);
  if (rewritten !== graph.node.filter((n) => n.opType === 'Max').length)
    throw new Error('the graph already had Max nodes: the PRelu rewrite cannot tell them apart');
  const inits = new Map(graph.initializer.map((t) => [t.name, t]));
  const nodes: NodeMsg[] = [];
  for (let i = 0; i < graph.node.length; i++) {
    const mul = graph.node[i]!;
    const max = graph.node[i + 1];
    // rewritePRelu emits each PRelu as Mul(y, a) -> s directly followed by Max(y, s).
    if (mul.opType !== 'Mul' || max?.opType !== 'Max' || max.input[1] !== mul.output[0]) {
      nodes.push(mul);
      continue;
    }
    const [y, slopeName] = mul.input as [string, string];
    const slope = inits.get(slopeName)!;
    const name = `${slopeName}_minus_one`;
    graph.initializer.push(
      rawTensor(
        name,
        DATA_TYPES.float32,
        dimsOf(slope),
        floatValues(slope).map((a) => a - 1),
      ),
    );
    const base = mul.name.replace(/\/Mul$/, '');
    nodes.push(
      { name: `${base}/Mul`, opType: 'Mul', input: [y, name], output: [`${base}/negative_part`] },
      { name: `${base}/Relu`, opType: 'Relu', input: [`${base}/negative_part`], output: [`${base}/relu`] },
      { name: `${base}/Add`, opType: 'Add', input: [y, `${base}/relu`], output: [...max.output] },
    );
    i++;
  }
  graph.node = nodes;
  // The slopes themselves and the weights the sign flip replaced are read by nothing any more.
  const read = new Set(nodes.flatMap((n) => n.input));
  graph.initializer = graph.initializer.filter((t) => read.has(t.name));
  return encode(model);
}
