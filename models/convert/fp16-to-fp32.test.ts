// fp16 -> fp32 widening: the half conversion on known and all 65536 bit patterns, and a synthetic fp16 graph
// (raw_data and int32_data weights, a Constant node, casts, an fp16 output) that onnxruntime runs before and
// after widening with matching results.
import * as ort from 'onnxruntime-node';
import { chw, conv2d, maxAbsDiff } from '../testing/reference';
import { decodeModel, GraphBuilder, int, tensorAttr } from '../onnx';
import { ModelProto } from '../onnx/proto';
import { halfBitsToFloatBits, halfToFloat, widenFloat16 } from './fp16-to-fp32';

/** The value of half bits by the IEEE 754 formula, independent of the bit-level conversion under test. */
function halfByFormula(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m === 0 ? sign * Infinity : NaN;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

describe('halfToFloat', () => {
  it('converts known half values, including subnormals, signed zero, infinities and NaN', () => {
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0xc000)).toBe(-2);
    expect(halfToFloat(0x7bff)).toBe(65504);
    expect(halfToFloat(0x0001)).toBe(2 ** -24);
    expect(halfToFloat(0x8001)).toBe(-(2 ** -24));
    expect(halfToFloat(0x03ff)).toBe(1023 * 2 ** -24);
    expect(halfToFloat(0x0400)).toBe(2 ** -14);
    expect(Object.is(halfToFloat(0x0000), 0)).toBe(true);
    expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
    expect(halfToFloat(0x7c00)).toBe(Infinity);
    expect(halfToFloat(0xfc00)).toBe(-Infinity);
    expect(halfToFloat(0x7e00)).toBeNaN();
    // NaN payloads and signs survive (quiet NaN 0x7e00 -> 0x7fc00000).
    expect(halfBitsToFloatBits(0x7e00)).toBe(0x7fc00000);
    expect(halfBitsToFloatBits(0xfc01)).toBe(0xff802000);
  });

  it('agrees with the IEEE formula on all 65536 bit patterns', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const expected = halfByFormula(h);
      const actual = halfToFloat(h);
      if (!(Object.is(actual, expected) || (Number.isNaN(expected) && Number.isNaN(actual)))) wrong.push(h);
    }
    expect(wrong).toEqual([]);
  });
});

const F16 = 10;
const F32 = 1;
/** Half bits of a value that fp16 represents exactly (the values used below are multiples of 1/8 below 8). */
function toHalfBits(v: number): number {
  for (let h = 0; h < 0x10000; h++) if (halfByFormula(h) === v && !(v === 0 && h !== 0)) return h;
  throw new Error(`${v} is not an fp16 value`);
}

/** x -> Cast(fp16) -> Conv(fp16 w, b) + Constant(fp16 0.5) -> Relu = h (fp16 output) -> Cast(float) = y. */
function fp16Graph(weights: number[], bias: number[]): Uint8Array {
  const g = new GraphBuilder('fp16');
  g.input('x', 'float32', [1, 2, 4, 4]);
  const xh = g.node('Cast', ['x'], { to: int(F16) });
  const w = g.initializer('w', { type: 'float16', dims: [3, 2, 3, 3], data: Uint16Array.from(weights, toHalfBits) });
  const b = g.initializer('b', { type: 'float16', dims: [3], data: Uint16Array.from(bias, toHalfBits) });
  const conv = g.node('Conv', [xh, w, b], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  const half = g.node('Constant', [], {
    value: tensorAttr({ type: 'float16', dims: [], data: Uint16Array.of(toHalfBits(0.5)) }),
  });
  g.node('Relu', [g.node('Add', [conv, half])], {}, { output: 'h' });
  g.node('Cast', ['h'], { to: int(F32) }, { output: 'y' });
  g.output('h', 'float16', [1, 3, 4, 4]);
  g.output('y', 'float32', [1, 3, 4, 4]);
  const bytes = g.toModel({ opset: 17 });
  // The builder writes raw_data; store the bias as int32_data (one half per element), the other ONNX layout.
  const model = ModelProto.decode(bytes) as unknown as {
    graph: { initializer: { name: string; rawData?: Uint8Array; int32Data?: number[] }[] };
  };
  const bInit = model.graph.initializer.find((t) => t.name === 'b')!;
  bInit.int32Data = Array.from(new Uint16Array(new Uint8Array(bInit.rawData!).buffer));
  delete bInit.rawData;
  return ModelProto.encode(model as never).finish();
}

async function run(model: Uint8Array, x: Float32Array): Promise<{ h: ort.Tensor; y: ort.Tensor }> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  try {
    const out = await session.run({ x: new ort.Tensor('float32', x, [1, 2, 4, 4]) });
    return { h: out.h as ort.Tensor, y: out.y as ort.Tensor };
  } finally {
    await session.release();
  }
}

describe('widenFloat16', () => {
  // Multiples of 1/8 and 1/4: exact in fp16, so both graphs see the same numbers.
  const weights = Array.from({ length: 54 }, (_, i) => ((i * 7) % 17) / 8 - 1);
  const bias = [0.25, -0.5, 0.125];
  const x = Float32Array.from({ length: 32 }, (_, i) => ((i * 5) % 11) / 4 - 1);

  it("gives an fp32 graph that runs in onnxruntime with the fp16 graph's results", async () => {
    const fp16 = fp16Graph(weights, bias);
    const fp32 = widenFloat16(fp16);

    const before = await run(fp16, x);
    const after = await run(fp32, x);
    expect(before.h.type).toBe('float16');
    expect(after.h.type).toBe('float32');
    expect(after.y.type).toBe('float32');

    // fp32 result equals the float64 JS reference; the fp16 run agrees within half precision.
    const ref = conv2d(chw(2, 4, 4, x), Float32Array.from(weights), Float32Array.from(bias), 3, 3, 1).data.map((v) =>
      Math.max(0, v + 0.5),
    );
    expect(maxAbsDiff(after.y.data as Float32Array, ref)).toBeLessThan(1e-5);
    expect(maxAbsDiff(before.y.data as Float32Array, ref)).toBeLessThan(1e-2);
    expect(Math.max(...ref)).toBeGreaterThan(1);
    // onnxruntime returns float16 values in a Float16Array where JavaScript has one (Node 24), else the raw bits.
    const halfBits = Object.prototype.toString.call(before.h.data) === '[object Uint16Array]';
    const beforeH = halfBits
      ? Float32Array.from(before.h.data as Uint16Array, halfToFloat)
      : Float32Array.from(before.h.data as ArrayLike<number>);
    expect(maxAbsDiff(after.h.data as Float32Array, beforeH)).toBeLessThan(1e-2);
    expect(maxAbsDiff(before.y.data as Float32Array, beforeH)).toBe(0);
  });

  it('leaves no float16 tensor, cast or type behind, and is deterministic', () => {
    const fp16 = fp16Graph(weights, bias);
    const fp32 = widenFloat16(fp16);
    expect(Buffer.from(widenFloat16(fp16)).equals(Buffer.from(fp32))).toBe(true);
    const { graph } = decodeModel(fp32);
    const all = ModelProto.toObject(ModelProto.decode(fp32), { arrays: true }) as {
      graph: { output: { type: { tensorType: { elemType: number } } }[] };
    };
    expect(all.graph.output.map((o) => o.type.tensorType.elemType)).toEqual([F32, F32]);
    expect(graph.initializer.map((t) => [t.name, t.dataType, t.rawData?.length])).toEqual([
      ['w', F32, 54 * 4],
      ['b', F32, 3 * 4],
    ]);
    expect(new Float32Array(new Uint8Array(graph.initializer[1]!.rawData!).buffer)).toEqual(Float32Array.from(bias));
    const casts = graph.node.filter((n) => n.opType === 'Cast').map((n) => n.attribute.find((a) => a.name === 'to')?.i);
    expect(casts).toEqual([F32, F32]);
    const constant = ModelProto.toObject(ModelProto.decode(fp32), { arrays: true }) as {
      graph: { node: { opType: string; attribute: { t?: { dataType: number; rawData: Uint8Array } }[] }[] };
    };
    const t = constant.graph.node.find((n) => n.opType === 'Constant')!.attribute[0]!.t!;
    expect([t.dataType, new Float32Array(new Uint8Array(t.rawData).buffer)[0]]).toEqual([F32, 0.5]);
  });

  it('refuses a model with fields the ONNX descriptor does not cover, instead of dropping them', () => {
    const fp16 = fp16Graph(weights, bias);
    // ModelProto field 20 (functions), length 0: valid protobuf that decoding with our subset would drop.
    const withFunctions = Buffer.concat([Buffer.from(fp16), Buffer.from([0xa2, 0x01, 0x00])]);
    expect(() => widenFloat16(withFunctions)).toThrow('ModelProto has field 20');
  });
});
