// Widens an fp16 ONNX model to fp32: float16 initializers and constant tensors become float32, Cast/dtype
// attributes that target float16 target float, and float16 value types become float. On a CPU without fast fp16
// kernels onnxruntime computes fp16 graphs through inserted casts, so the widened copy runs faster with the same
// weights (every half value is exactly representable as a float, so no weight changes).
import * as protobuf from 'protobufjs';
import { DATA_TYPES, ModelProto } from '../onnx/proto';

const FLOAT16 = DATA_TYPES.float16;
const FLOAT32 = DATA_TYPES.float32;

/** The float32 bit pattern of an IEEE 754 half given as its 16 bits (exact; keeps -0, inf and NaN payloads). */
export function halfBitsToFloatBits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exponent = (h >> 10) & 0x1f;
  let mantissa = h & 0x3ff;
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
  if (exponent !== 0) return (sign | ((exponent - 15 + 127) << 23) | (mantissa << 13)) >>> 0;
  if (mantissa === 0) return sign >>> 0;
  // Subnormal half (mantissa * 2^-24): shift the leading 1 into the implicit bit; it is a normal float.
  let e = -14;
  while ((mantissa & 0x400) === 0) {
    mantissa <<= 1;
    e--;
  }
  return (sign | ((e + 127) << 23) | ((mantissa & 0x3ff) << 13)) >>> 0;
}

/** The value of an IEEE 754 half given as its 16 bits. */
export function halfToFloat(h: number): number {
  const bits = new Uint32Array([halfBitsToFloatBits(h)]);
  return new Float32Array(bits.buffer)[0] as number;
}

let table: Uint32Array | undefined;
/** All 65536 conversions, built on first use: the ISNet weights are tens of millions of halves. */
function conversionTable(): Uint32Array {
  if (!table) {
    table = new Uint32Array(0x10000);
    for (let h = 0; h < 0x10000; h++) table[h] = halfBitsToFloatBits(h);
  }
  return table;
}

/** Little-endian float32 bytes of the halves yielded by `half(i)` for i < count. */
function widenValues(count: number, half: (i: number) => number): Uint8Array {
  const lut = conversionTable();
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = lut[half(i)] as number;
  // Typed arrays use the platform byte order; every platform Node supports here is little-endian (as raw_data).
  return new Uint8Array(out.buffer);
}

type Msg = Record<string, unknown>;
const list = (v: unknown): Msg[] => (Array.isArray(v) ? (v as Msg[]) : []);

function widenTensor(t: Msg | null | undefined): void {
  if (!t || t.dataType !== FLOAT16) return;
  const raw = t.rawData as Uint8Array | undefined;
  const int32 = t.int32Data as number[] | undefined;
  if (raw && raw.length > 0) {
    if (raw.length % 2 !== 0)
      throw new Error(`float16 tensor "${String(t.name ?? '')}" has ${raw.length} raw bytes (odd)`);
    t.rawData = widenValues(raw.length / 2, (i) => (raw[2 * i] as number) | ((raw[2 * i + 1] as number) << 8));
  } else if (int32 && int32.length > 0) {
    // ONNX stores each half's 16 bits in the low bits of an int32_data element.
    t.rawData = widenValues(int32.length, (i) => (int32[i] as number) & 0xffff);
  }
  t.int32Data = [];
  t.dataType = FLOAT32;
}

function widenType(info: Msg): void {
  const tensorType = (info.type as Msg | undefined)?.tensorType as Msg | undefined;
  if (tensorType?.elemType === FLOAT16) tensorType.elemType = FLOAT32;
}

const isDtypeAttribute = (opType: string, name: string) => (opType === 'Cast' && name === 'to') || name === 'dtype';

function widenGraph(graph: Msg | null | undefined): void {
  if (!graph) return;
  for (const t of list(graph.initializer)) widenTensor(t);
  for (const info of [...list(graph.input), ...list(graph.output), ...list(graph.valueInfo)]) widenType(info);
  for (const node of list(graph.node)) {
    for (const attr of list(node.attribute)) {
      widenTensor(attr.t as Msg | undefined);
      for (const t of list(attr.tensors)) widenTensor(t);
      widenGraph(attr.g as Msg | undefined);
      for (const g of list(attr.graphs)) widenGraph(g);
      if (isDtypeAttribute(String(node.opType), String(attr.name)) && Number(attr.i) === FLOAT16) attr.i = FLOAT32;
    }
  }
}

/**
 * Throws when `bytes` hold a field that models/onnx/proto.ts does not describe: decoding would drop it silently,
 * so the widened model would lose it (external data, sparse initializers, functions, training info...).
 */
function assertFullyDescribed(type: protobuf.Type, bytes: Uint8Array, path: string): void {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = type.fieldsById[tag >>> 3];
    if (!field)
      throw new Error(`cannot widen: ${path} has field ${tag >>> 3}, which models/onnx/proto.ts does not describe`);
    field.resolve();
    if (field.resolvedType instanceof protobuf.Type && (tag & 7) === 2) {
      assertFullyDescribed(field.resolvedType, reader.bytes(), `${path}.${field.name}`);
    } else {
      reader.skipType(tag & 7);
    }
  }
}

/** Returns the ONNX model `onnxBytes` with every float16 tensor, type and cast widened to float32 (deterministic). */
export function widenFloat16(onnxBytes: Uint8Array): Uint8Array {
  assertFullyDescribed(ModelProto, onnxBytes, 'ModelProto');
  const model = ModelProto.decode(onnxBytes) as unknown as Msg;
  widenGraph(model.graph as Msg | undefined);
  return ModelProto.encode(model as unknown as protobuf.Message).finish();
}
