import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { productPhotoRequestSchema, SUBJECT_ALPHA_THRESHOLD } from '@imagestudio/contracts';
import type { InferenceRuntime, ModelSession } from '../inference';
import { FIXTURES, mattingModel, startCpuRuntime } from '../test-support/models';
import { removeBackground } from './remove-background';

/**
 * The crop never cuts the subject: on every fixture photo, with the real ISNet matte after refinement, a crop to
 * the subject at 0 margin holds every pixel of the cut-out with alpha >= SUBJECT_ALPHA_THRESHOLD, and is no larger
 * than the box of those pixels (the refinement already dropped the far specks the box rule may leave out).
 */
const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png'];

/** How many pixels of a one-byte alpha plane reach the threshold, and their box. */
function subjectPixels(alpha: Uint8Array, width: number, height: number, channels = 1) {
  let [x0, y0, x1, y1, count] = [width, height, -1, -1, 0];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (alpha[(y * width + x) * channels + channels - 1]! >= SUBJECT_ALPHA_THRESHOLD) {
        count++;
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return { count, box: { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

describe('crop to the subject on the fixture photos (real ISNet model, CPU)', () => {
  const { model, file } = mattingModel();
  let runtime: InferenceRuntime;
  let session: ModelSession;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    session = await runtime.load(file);
  }, 60_000);
  afterAll(() => runtime.close());

  it.each(PHOTOS)(
    '%s: the crop at 0 margin holds every subject pixel of the cut-out',
    async (name) => {
      const input = fs.readFileSync(path.join(FIXTURES, name));
      const layout = productPhotoRequestSchema.parse({ crop_to_subject: 'true', margin: '0', output_format: 'png' });
      const out = await removeBackground(session, model, input, { layout });
      const { width, height } = await sharp(input).metadata();
      // The cut-out's alpha is the refined matte (the photos are opaque).
      const whole = subjectPixels(out.alpha, width, height);
      expect(whole.count).toBeGreaterThan(0);

      const result = await sharp(out.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([result.info.width, result.info.height]).toEqual([whole.box.width, whole.box.height]);
      expect(out.subjectBox).toEqual({ left: 0, top: 0, width: whole.box.width, height: whole.box.height });
      // Drawn at scale 1, so the crop holds every subject pixel exactly when it holds as many as the cut-out.
      const cropped = subjectPixels(result.data, result.info.width, result.info.height, 4);
      expect(cropped.count).toBe(whole.count);
    },
    60_000,
  );
});
