// The quantizer on a small graph against an independent integer reference (quantize, integer convolution,
// requantize, dequantize written plainly), to the exact value; the QDQ form is fused by onnxruntime into
// QLinearConv; the PRelu rewrite is exact; calibration and quantization are deterministic.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { GraphBuilder } from '../onnx';
import { calibrate, percentileRange } from './calibrate';
import { cpuHasInt8Dot } from './cpu';
import {
  activationParams,
  decode,
  graphOf,
  planFor,
  quantizeBias,
  quantizeModel,
  quantizeWeights,
  type Range,
  roundHalfEven,
} from './quantize';

/** A deterministic pseudo-random sequence in [-1, 1). */
function seq(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

const C0 = 3;
const C1 = 4;
const C2 = 3;
const H = 7;
const W = 6;
const w1 = seq(C1 * C0 * 9, 1).map((v) => v * 0.5);
const b1 = seq(C1, 2).map((v) => v * 0.2);
const w2 = seq(C2 * C1 * 9, 3).map((v) => v * 0.3);
const b2 = seq(C2, 4).map((v) => v * 0.1);

/** x -> Conv 3x3 -> Relu -> Conv 3x3 -> MaxPool 1x1 (identity, so the second Conv's output is not a graph output). */
function smallModel(): Uint8Array {
  const g = new GraphBuilder('small');
  g.input('x', 'float32', [1, C0, H, W]);
  const c1 = g.node(
    'Conv',
    ['x', g.float32('w1', [C1, C0, 3, 3], w1), g.float32('b1', [C1], b1)],
    { kernel_shape: [3, 3], pads: [1, 1, 1, 1] },
    { name: 'conv1', output: 'c1' },
  );
  const r1 = g.node('Relu', [c1], {}, { name: 'relu1', output: 'r1' });
  const c2 = g.node(
    'Conv',
    [r1, g.float32('w2', [C2, C1, 3, 3], w2), g.float32('b2', [C2], b2)],
    { kernel_shape: [3, 3], pads: [1, 1, 1, 1] },
    { name: 'conv2', output: 'c2' },
  );
  g.node('MaxPool', [c2], { kernel_shape: [1, 1] }, { name: 'pool', output: 'y' });
  g.output('y', 'float32', [1, C2, H, W]);
  return g.toModel({ opset: 17 });
}

/** Pearson correlation of two equally long series. */
function correlation(a: Float32Array, b: Float32Array): number {
  const mean = (v: Float32Array) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

const quantize = (v: number, p: { scale: number; zeroPoint: number }) =>
  Math.min(255, Math.max(0, roundHalfEven(Math.fround(v / p.scale)) + p.zeroPoint));

/** Integer 3x3 convolution (pad 1) of uint8 `x` (zero point zx) with int8 weights, int32 bias, requantized. */
function integerConv(
  xq: Int32Array,
  zx: number,
  cin: number,
  cout: number,
  wq: Int8Array,
  bq: Int32Array,
  multipliers: Float32Array,
  zy: number,
): Int32Array {
  const out = new Int32Array(cout * H * W);
  for (let o = 0; o < cout; o++)
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        let acc = bq[o]!;
        for (let c = 0; c < cin; c++)
          for (let ky = 0; ky < 3; ky++)
            for (let kx = 0; kx < 3; kx++) {
              const yy = y + ky - 1;
              const xx = x + kx - 1;
              if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
              acc += (xq[(c * H + yy) * W + xx]! - zx) * wq[((o * cin + c) * 3 + ky) * 3 + kx]!;
            }
        // onnxruntime requantizes in float32: acc * (s_x * s_w / s_y), rounded half to even, plus zero point.
        const v = roundHalfEven(Math.fround(Math.fround(acc) * multipliers[o]!)) + zy;
        out[(o * H + y) * W + x] = Math.min(255, Math.max(0, v));
      }
  return out;
}

const opts: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, logSeverityLevel: 3 };

describe('int8 quantizer', () => {
  const ranges: Record<string, Range> = {
    x: { min: -1, max: 1 },
    r1: { min: 0, max: 1.7 },
    c2: { min: -1.3, max: 0.9 },
  };

  it('plans the convolutions, their input and output tensors, and Relu outputs starting at 0', () => {
    const plan = planFor(smallModel());
    expect(plan.convs.map((c) => [c.node, c.input, c.output, c.relu])).toEqual([
      ['conv1', 'x', 'r1', true],
      ['conv2', 'r1', 'c2', false],
    ]);
    expect(plan.tensors).toEqual(['x', 'r1', 'c2']);
    expect(plan.nonNegative).toEqual(['r1']);
    expect(planFor(smallModel(), { keepFloat: ['conv2'] }).tensors).toEqual(['x', 'r1']);
    expect(() => planFor(smallModel(), { keepFloat: ['nope'] })).toThrow('keepFloat names unknown nodes: nope');
  });

  it('matches a plain integer reference (exactly with VNNI or AMX), and onnxruntime fuses it into QLinearConv', async () => {
    const { onnx } = quantizeModel(smallModel(), ranges);
    const dir = mkdtempSync(join(tmpdir(), 'quantize-'));
    try {
      const optimized = join(dir, 'optimized.onnx');
      const session = await ort.InferenceSession.create(onnx, { ...opts, optimizedModelFilePath: optimized });
      const input = seq(C0 * H * W, 5).map((v) => v * 1.2); // some values outside the calibrated range: clamped
      const y = (await session.run({ x: new ort.Tensor('float32', input, [1, C0, H, W]) })).y!.data as Float32Array;
      await session.release();
      const ops = graphOf(decode(readFileSync(optimized))).node.map((n) => n.opType);
      expect(ops.filter((o) => o === 'QLinearConv')).toHaveLength(2);
      expect(ops).not.toContain('Conv');

      // The reference, from the same parameters computed independently here.
      const px = activationParams(ranges.x!);
      const pr = activationParams({ min: 0, max: ranges.r1!.max });
      const pc = activationParams(ranges.c2!);
      expect(pr.zeroPoint).toBe(0);
      const q1 = quantizeWeights(w1, C1);
      const q2 = quantizeWeights(w2, C2);
      const bias1 = quantizeBias(b1, px.scale, q1.scales);
      const bias2 = quantizeBias(b2, pr.scale, q2.scales);
      const mult = (sx: number, ws: Float32Array, sy: number) =>
        Float32Array.from(ws, (sw) => Math.fround(Math.fround(sx * sw) / sy));
      const xq = Int32Array.from(input, (v) => quantize(v, px));
      const r1q = integerConv(
        xq,
        px.zeroPoint,
        C0,
        C1,
        q1.q,
        bias1.q,
        mult(px.scale, q1.scales, pr.scale),
        pr.zeroPoint,
      );
      const c2q = integerConv(
        r1q,
        pr.zeroPoint,
        C1,
        C2,
        q2.q,
        bias2.q,
        mult(pr.scale, q2.scales, pc.scale),
        pc.zeroPoint,
      );
      const expected = Float32Array.from(c2q, (q) => Math.fround((q - pc.zeroPoint) * pc.scale));
      if (cpuHasInt8Dot()) expect(Array.from(y)).toEqual(Array.from(expected));
      else {
        // Plain AVX2 (no VNNI or AMX): onnxruntime multiply-adds u8 x s8 pairs into 16 bits with saturation
        // (cpu.ts), so some outputs differ from the exact reference; the worker never runs int8 on such a CPU.
        // The graph must still compute the same convolutions: close on average, and in the same direction.
        const steps = Array.from(y, (v, i) => Math.abs(v - expected[i]!) / pc.scale);
        const meanSteps = steps.reduce((a, b) => a + b, 0) / steps.length;
        // Measured on an AMD EPYC with AVX2 only: 3.5 steps on average, 14 at most.
        expect(meanSteps).toBeLessThan(5);
        expect(correlation(y, expected)).toBeGreaterThan(0.95);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('quantizes weights symmetrically per output channel and rounds half to even', () => {
    const { q, scales } = quantizeWeights(Float32Array.from([1, -0.5, 0.25, 0, 0, 0]), 2);
    expect(Array.from(q)).toEqual([127, -64, 32, 0, 0, 0]);
    expect(scales[0]).toBe(Math.fround(1 / 127));
    expect(scales[1]).toBe(1);
    expect([0.5, 1.5, 2.5, -0.5, -1.5].map(roundHalfEven)).toEqual([0, 2, 2, -0, -2]);
  });

  it('gives the same bytes for the same model and ranges', () => {
    const a = quantizeModel(smallModel(), ranges).onnx;
    const b = quantizeModel(smallModel(), ranges).onnx;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('rewrites PRelu as Max(y, a * y) exactly, slopes above 1 folded into the convolutions', async () => {
    const g = new GraphBuilder('prelu');
    g.input('x', 'float32', [1, 2, 4, 4]);
    const c = g.node(
      'Conv',
      ['x', g.float32('w', [3, 2, 1, 1], [1, -2, 0.5, 1, -1, 0.25]), g.float32('b', [3], [0.1, -0.2, 0.3])],
      {},
      { name: 'c', output: 'c' },
    );
    const p = g.node('PRelu', [c, g.float32('a', [3, 1, 1], [0.25, 1.5, -0.5])], {}, { name: 'p', output: 'p' });
    g.node('Conv', [p, g.float32('w2', [1, 3, 1, 1], [1, 2, 3])], {}, { name: 'c2', output: 'y' });
    g.output('y', 'float32');
    const model = g.toModel({ opset: 17 });
    const x = new ort.Tensor(
      'float32',
      seq(32, 9).map((v) => v * 2),
      [1, 2, 4, 4],
    );
    const run = async (bytes: Uint8Array) => {
      const s = await ort.InferenceSession.create(bytes, opts);
      const out = (await s.run({ x })).y!.data as Float32Array;
      await s.release();
      return Array.from(out);
    };
    // With every tensor's range huge, quantization itself is not what is compared: keep both convs in fp32.
    const { onnx } = quantizeModel(model, {}, { rewritePRelu: true, keepFloat: ['c', 'c2'] });
    const ops = graphOf(decode(onnx)).node.map((n) => n.opType);
    expect(ops).toEqual(['Conv', 'Mul', 'Max', 'Conv']);
    expect(await run(onnx)).toEqual(await run(model));
  });

  it('calibrates deterministically: percentile ranges from a histogram, means over the inputs', async () => {
    const data = Float32Array.from({ length: 10000 }, (_, i) => i / 9999);
    expect(percentileRange(data, 0)).toEqual({ min: 0, max: 1 });
    const clipped = percentileRange(data, 1);
    expect(clipped.min).toBeCloseTo(0.01, 3);
    expect(clipped.max).toBeCloseTo(0.99, 3);
    const model = smallModel();
    const { tensors } = planFor(model);
    const inputs = [0, 1].map((k) => ({ data: seq(C0 * H * W, 10 + k), dims: [1, C0, H, W] }));
    const a = await calibrate(model, tensors, inputs, { inputName: 'x', clipPercent: 0 });
    const b = await calibrate(model, tensors, inputs, { inputName: 'x', clipPercent: 0, groupSize: 1 });
    expect(a).toEqual(b);
    const minX = (k: number) => Math.min(...inputs[k]!.data);
    expect(a.x!.min).toBeCloseTo((minX(0) + minX(1)) / 2, 5);
  });
});
