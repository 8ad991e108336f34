import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { InferenceRuntime } from '../inference';
import { decodeImage } from '../imaging/decode';
import { maskIou } from '../imaging/matting';
import { matteFigures } from '../imaging/matte-metrics';
import { FIXTURES, mattingModel, memoRunner, startCpuRuntime } from '../test-support/models';
import { predictAlpha, removeBackground } from './remove-background';

// The cat whose white chest and lower body the model leaves at 60-90% alpha; refined, solid subjects stay solid.
const CAT = fs.readFileSync(path.join(FIXTURES, 'chelsea.png'));

describe('matte refinement on the real cat photo and ISNet (CPU)', () => {
  const { model, file } = mattingModel();
  let runtime: InferenceRuntime;
  let runner: ReturnType<typeof memoRunner>;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    runner = memoRunner(await runtime.load(file));
  }, 60_000);
  afterAll(() => runtime.close());

  it.each([
    ['at its own size (451 px)', null],
    ['enlarged to 1500 px', 1500],
  ] as const)(
    'the cat %s comes out solid: under 1%% of its silhouette below 90%% alpha, edges as soft as before',
    async (_label, width) => {
      const input = width ? await sharp(CAT).resize(width).png().toBuffer() : CAT;
      const image = await decodeImage(input);
      const raw = await predictAlpha(runner, model, image);
      const out = await removeBackground(runner, model, input, { outputFormat: 'png' });
      expect(out.width).toBe(width ?? 451);
      const before = matteFigures(raw, out.width, out.height);
      const after = matteFigures(out.alpha, out.width, out.height);
      // Without the refinement a fifth of the cat is see-through.
      expect(before.softShare).toBeGreaterThan(0.1);
      expect(after.softShare).toBeLessThan(0.01);
      expect(after.edgeBand).toBeGreaterThanOrEqual(before.edgeBand * 0.9);
      // The outline stays where the model put it.
      expect(maskIou(out.alpha, raw)).toBeGreaterThan(0.99);
      // And the cut-out itself is solid where the matte is.
      const rgba = await sharp(out.data).raw().toBuffer();
      const chest = (Math.round(out.height * 0.93) * out.width + Math.round(out.width * 0.1)) * 4 + 3;
      expect(raw[(chest - 3) / 4]).toBeLessThan(230);
      expect(rgba[chest]).toBe(255);
    },
    120_000,
  );
});
