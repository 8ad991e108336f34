import * as protobuf from 'protobufjs';
import { DATA_TYPES, ModelProto } from '../onnx/proto';

/** The decoded ONNX model as the quantizer edits it: plain protobuf messages, and the few helpers on them. */

export type Msg = Record<string, unknown>;
export interface NodeMsg {
  name: string;
  opType: string;
  domain?: string;
  input: string[];
  output: string[];
  attribute?: Msg[];
}
export interface TensorMsg {
  name: string;
  dims: (number | { toNumber(): number })[];
  dataType: number;
  rawData?: Uint8Array;
  floatData?: number[];
}
export interface GraphMsg {
  node: NodeMsg[];
  initializer: TensorMsg[];
  input: Msg[];
  output: { name: string }[];
  valueInfo?: Msg[];
}

export function decode(bytes: Uint8Array): Msg {
  return ModelProto.decode(bytes) as unknown as Msg;
}
export function encode(model: Msg): Uint8Array {
  return ModelProto.encode(model as unknown as protobuf.Message).finish();
}
export const graphOf = (model: Msg) => model.graph as unknown as GraphMsg;

export const dimsOf = (t: TensorMsg) => t.dims.map((d) => (typeof d === 'number' ? d : d.toNumber()));

/** The float32 values of an initializer (raw_data or float_data). */
export function floatValues(t: TensorMsg): Float32Array {
  if (t.dataType !== DATA_TYPES.float32) throw new Error(`initializer ${t.name} is not float32`);
  if (t.rawData && t.rawData.length > 0) {
    const copy = new Uint8Array(t.rawData);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  return Float32Array.from(t.floatData ?? []);
}

export function rawTensor(name: string, dataType: number, dims: number[], data: ArrayBufferView): TensorMsg {
  return {
    name,
    dims,
    dataType,
    rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  };
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
