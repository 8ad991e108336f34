// The PRelu rewrite for onnxruntime's blocked layout on the real SRVGG models: the rewritten graph gives the output
// of the plain conversion (to float rounding) on the fixture photo, holds no PRelu, and onnxruntime keeps it in
// the blocked layout (no reorder between the convolutions).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { getModel } from '../manifest';
import { readTarballFiles } from '../prepare/tarball';
import { decode, graphOf } from '../quantize/onnx-graph';
import { requireTarball } from '../testing/cache';
import { runOnnx } from '../testing/ort';
import { maxAbsDiff, psnr } from '../testing/reference';
import { convertNcnnModel } from './ncnn';
import { preluForBlockedLayout } from './prelu-nchwc';

const CROP = join(__dirname, '..', 'fixtures', 'chelsea-crop-48x40.png');

/** The fixture photo (48x40) as NCHW float32 in 0..1. */
async function fixture(): Promise<{ data: Float32Array; dims: number[] }> {
  const { data, info } = await sharp(CROP).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const plane = info.width * info.height;
  const x = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) x[c * plane + i] = data[i * 3 + c]! / 255;
  return { data: x, dims: [1, 3, info.height, info.width] };
}

/** The plain conversion of a model from its cached tarball, as `npm run models` makes it before the rewrite. */
async function converted(id: string): Promise<Uint8Array> {
  const entry = getModel(id);
  const bin = entry.source.path.replace(/\.param$/, '.bin');
  const files = await readTarballFiles(requireTarball(entry), (p) => p === entry.source.path || p === bin);
  return convertNcnnModel(files.get(entry.source.path)!.toString('utf8'), files.get(bin)!).onnx;
}

const opCounts = (onnx: Uint8Array) => {
  const counts: Record<string, number> = {};
  for (const n of graphOf(decode(onnx)).node) counts[n.opType] = (counts[n.opType] ?? 0) + 1;
  return counts;
};

describe('preluForBlockedLayout', () => {
  it.each([
    ['realesr-general-x4v3', 33],
    ['realesr-animevideov3-x4', 17],
    ['realesr-animevideov3-x2', 17],
  ])(
    '%s: the same output as the plain conversion on the fixture photo, %i PRelu rewritten',
    async (id, prelus) => {
      const plain = await converted(id);
      const rewritten = preluForBlockedLayout(plain);
      expect(opCounts(plain).PRelu).toBe(prelus);
      const ops = opCounts(rewritten);
      expect(ops.PRelu).toBeUndefined();
      expect(ops).toMatchObject({ Relu: prelus, Mul: prelus });
      // Slopes above 1 took the sign-flip path: their convolutions' weights were replaced by flipped copies.
      const flipped = graphOf(decode(rewritten)).initializer.filter((t) => t.name.endsWith('/weight_signed'));
      expect(flipped.length).toBeGreaterThan(0);
      const x = await fixture();
      const before = await runOnnx(plain, x.data, x.dims);
      const after = await runOnnx(rewritten, x.data, x.dims);
      expect(after.dims).toEqual(before.dims);
      // Measured 1.5e-6 and 147 dB on a 384 px crop (0..1 values); the goal for the photo model is 45 dB.
      expect(maxAbsDiff(before.data, after.data)).toBeLessThan(1e-4);
      expect(psnr(before.data, after.data, 1)).toBeGreaterThan(100);
    },
    120_000,
  );

  it('lets onnxruntime keep the blocked layout between the convolutions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'prelu-nchwc-'));
    try {
      const optimized = async (onnx: Uint8Array, name: string) => {
        const optimizedModelFilePath = join(dir, name);
        const session = await ort.InferenceSession.create(onnx, {
          graphOptimizationLevel: 'all',
          optimizedModelFilePath,
          logSeverityLevel: 3,
        });
        await session.release();
        return opCounts(await readFile(optimizedModelFilePath));
      };
      const plain = await converted('realesr-general-x4v3');
      // Before: a reorder out of the layout before each PRelu and back in after it.
      expect((await optimized(plain, 'plain.onnx')).ReorderInput).toBe(33);
      const after = await optimized(preluForBlockedLayout(plain), 'rewritten.onnx');
      expect(after.ReorderInput).toBeUndefined();
      expect(after.ReorderOutput).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('returns a graph without PRelu as it is (a second pass changes nothing)', async () => {
    const once = preluForBlockedLayout(await converted('realesr-animevideov3-x4'));
    expect(preluForBlockedLayout(once)).toBe(once);
  }, 120_000);
});
