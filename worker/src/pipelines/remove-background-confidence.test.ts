import fs from 'node:fs';
import path from 'node:path';
import {
  cutoutConfidence,
  DOUBTFUL_CUTOUT_CONFIDENCE,
  isDoubtfulCutout,
  productPhotoRequestSchema,
} from '@imagestudio/contracts';
import type { InferenceRuntime } from '../inference';
import { decodeImage } from '../imaging/decode';
import { FIXTURES, mattingModel, memoRunner, startCpuRuntime } from '../test-support/models';
import { predictAlpha, removeBackground } from './remove-background';

/**
 * The cut-out confidence of the fixture photos through the real model (CPU), which set the doubtful threshold
 * (docs/product-photos.md "Cut-out confidence"): the clean cup and the astronaut are trusted; the cat, with a grey
 * patch of background kept beside its ear, and the motorcycle, with the shelf items behind it left half
 * transparent, are worth a touch-up.
 */
describe('cut-out confidence on the fixture photos (CPU)', () => {
  const { model, file } = mattingModel();
  let runtime: InferenceRuntime;
  let runner: ReturnType<typeof memoRunner>;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    runner = memoRunner(await runtime.load(file));
  }, 60_000);
  afterAll(() => runtime.close());

  it.each([
    ['coffee.png', false],
    ['astronaut.png', false],
    ['chelsea.png', true],
    ['motorcycle_left.png', true],
  ] as const)(
    '%s: the score of its refined matte comes with the output (doubtful: %s)',
    async (name, doubtful) => {
      const input = fs.readFileSync(path.join(FIXTURES, name));
      const out = await removeBackground(runner, model, input, { outputFormat: 'png' });
      expect(out.cutoutConfidence).toBe(cutoutConfidence(out.alpha, out.width, out.height)!.confidence);
      expect(isDoubtfulCutout(out.cutoutConfidence)).toBe(doubtful);
      // Not on the threshold's edge: a small change of the model's output must not flip the hint.
      expect(Math.abs(out.cutoutConfidence! - DOUBTFUL_CUTOUT_CONFIDENCE)).toBeGreaterThanOrEqual(0.05);
      // The layout changes the picture, not the score: it is the matte's.
      const layout = productPhotoRequestSchema.parse({ crop_to_subject: 'true', canvas: '1:1', mask_only: 'true' });
      const laidOut = await removeBackground(runner, model, input, { layout });
      expect([laidOut.width, laidOut.height]).not.toEqual([out.width, out.height]);
      expect(laidOut.cutoutConfidence).toBe(out.cutoutConfidence);
    },
    120_000,
  );

  it("scores the model's unrefined cat far lower than the refined one: the refinement's filled chest counts", async () => {
    const input = fs.readFileSync(path.join(FIXTURES, 'chelsea.png'));
    const image = await decodeImage(input);
    const raw = await predictAlpha(runner, model, image);
    const out = await removeBackground(runner, model, input, { outputFormat: 'png' });
    expect(cutoutConfidence(raw, image.width, image.height)!.confidence).toBeLessThan(out.cutoutConfidence! - 0.5);
  }, 120_000);
});
