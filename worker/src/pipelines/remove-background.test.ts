import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { InferenceRuntime, ModelSession } from '../inference';
import { maskIou } from '../imaging/matting';
import { FIXTURES, mattingModel, memoRunner, startCpuRuntime } from '../test-support/models';
import { predictAlpha, removeBackground } from './remove-background';
import { decodeImage } from '../imaging/decode';
import { int8Variant } from '../../../models/manifest';
import { cpuHasInt8Dot } from '../inference';

const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const GOLDEN = path.join(FIXTURES, 'coffee-300-mask.png');

describe('background removal on the real ISNet model (CPU)', () => {
  const { model, file } = mattingModel();
  let runtime: InferenceRuntime;
  let session: ModelSession;
  let runner: ReturnType<typeof memoRunner>;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    session = await runtime.load(file);
    runner = memoRunner(session);
  }, 60_000);
  afterAll(() => runtime.close());

  it('cuts out the cup: opaque in the middle, transparent in the corners, same size, truecolor PNG', async () => {
    // Meanwhile a 10 ms timer counts the event loop's turns while the model runs: inference runs in the runtime's
    // thread, so the loop keeps turning (run inline, onnxruntime-node's synchronous run would block it, and no turn
    // could come between the run's start and its answer). Counted, not timed, so a loaded machine cannot fail it.
    let ticks = 0;
    let ticksDuringRuns = 0;
    const timer = setInterval(() => ticks++, 10);
    const counting = {
      run: async (...args: Parameters<typeof runner.run>) => {
        const before = ticks;
        const result = await session.run(...args);
        ticksDuringRuns += ticks - before;
        return result;
      },
    };
    const out = await removeBackground(counting, model, COFFEE, { outputFormat: 'png' });
    clearInterval(timer);
    expect(ticksDuringRuns).toBeGreaterThan(0);
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height, meta.channels, meta.isPalette]).toEqual([300, 200, 4, false]);
    expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
    const raw = await sharp(out.data).raw().toBuffer();
    const alphaAt = (x: number, y: number) => raw[(y * 300 + x) * 4 + 3]!;
    expect(alphaAt(150, 90)).toBeGreaterThan(240);
    for (const [x, y] of [
      [3, 3],
      [296, 3],
      [3, 196],
      [296, 196],
    ] as const)
      expect(alphaAt(x, y)).toBeLessThan(15);
    // Opaque pixels keep the input's colours exactly.
    const src = await sharp(COFFEE).raw().toBuffer();
    expect(raw[(90 * 300 + 150) * 4]).toBe(src[(90 * 300 + 150) * 3]);
  });

  it('matches the golden mask (IoU >= 0.99)', async () => {
    const image = await decodeImage(COFFEE);
    const alpha = await predictAlpha(runner, model, image);
    if (process.env.UPDATE_GOLDEN === '1') {
      await sharp(alpha, { raw: { width: 300, height: 200, channels: 1 } })
        .png()
        .toFile(GOLDEN);
    }
    const golden = await sharp(GOLDEN).extractChannel(0).raw().toBuffer();
    expect(maskIou(alpha, golden)).toBeGreaterThanOrEqual(0.99);
  });

  // Only where the worker would run it: without VNNI/AMX onnxruntime's int8 kernels saturate (models/quantize/cpu.ts).
  (cpuHasInt8Dot() ? it : it.skip)(
    'the int8 file (WORKER_PRECISION auto on VNNI CPUs) also matches the golden mask (IoU >= 0.99)',
    async () => {
      const int8 = int8Variant(model.id);
      if (!int8) throw new Error(`no int8 model for ${model.id} in the manifest`);
      const int8Session = await runtime.load(path.join(path.dirname(file), int8.file));
      try {
        const alpha = await predictAlpha(int8Session, int8, await decodeImage(COFFEE));
        const golden = await sharp(GOLDEN).extractChannel(0).raw().toBuffer();
        expect(maskIou(alpha, golden)).toBeGreaterThanOrEqual(0.99);
      } finally {
        await int8Session.release();
      }
    },
    60_000,
  );

  it('returns the mask alone with mask_only, and an opaque image on background_color', async () => {
    const mask = await removeBackground(runner, model, COFFEE, { outputFormat: 'png', maskOnly: true });
    const m = await sharp(mask.data).metadata();
    expect([m.width, m.height, m.channels]).toEqual([300, 200, 1]);
    const maskPx = await sharp(mask.data).extractChannel(0).raw().toBuffer();
    expect(maskPx.equals(mask.alpha)).toBe(true);

    const green = await removeBackground(runner, model, COFFEE, { outputFormat: 'webp', backgroundColor: '#00ff00' });
    const g = await sharp(green.data).metadata();
    expect([g.format, g.width, g.height, g.hasAlpha]).toEqual(['webp', 300, 200, false]);
    const px = await sharp(green.data).raw().toBuffer();
    expect(Array.from(px.subarray(0, 3))).toEqual([0, 255, 0]); // corner is background
    expect(runner.misses).toBeLessThanOrEqual(2); // the options reused one inference per image
  });

  it('supports no refinement and guided-only refinement as well', async () => {
    const none = await removeBackground(runner, model, COFFEE, {
      outputFormat: 'png',
      refinement: 'none',
      maskOnly: true,
    });
    const guided = await removeBackground(runner, model, COFFEE, {
      outputFormat: 'png',
      refinement: 'guided',
      maskOnly: true,
    });
    expect(maskIou(none.alpha, guided.alpha)).toBeGreaterThan(0.95);
    expect(none.alpha.equals(guided.alpha)).toBe(false);
  });

  it('handles EXIF-rotated and greyscale inputs', async () => {
    const rotated = await sharp(COFFEE).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const r = await removeBackground(runner, model, rotated, { outputFormat: 'png', maskOnly: true });
    expect([r.width, r.height]).toEqual([200, 300]);
    // The mask follows the displayed (rotated) image: the cup centre moved from (150, 90) to (110, 150).
    const upright = await predictAlpha(runner, model, await decodeImage(COFFEE));
    const turned = await sharp(upright, { raw: { width: 300, height: 200, channels: 1 } })
      .rotate(90)
      .extractChannel(0)
      .raw()
      .toBuffer();
    expect(maskIou(r.alpha, turned)).toBeGreaterThan(0.9);

    const grey = await sharp(COFFEE).greyscale().png().toBuffer();
    const g = await removeBackground(runner, model, grey, { outputFormat: 'png' });
    const meta = await sharp(g.data).metadata();
    expect([meta.channels, meta.width]).toEqual([4, 300]);
    expect(g.alpha[90 * 300 + 150]).toBeGreaterThan(200);
  });
});
