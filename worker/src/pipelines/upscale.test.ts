import path from 'node:path';
import sharp from 'sharp';
import type { InferenceRuntime, ModelSession } from '../inference';
import { ImageInputError, decodeImage } from '../imaging/decode';
import { type ModelEntry, modelsForTask } from '../models';
import { FIXTURES, MODELS_DIR, startCpuRuntime } from '../test-support/models';
import { chooseUpscaleModel } from '../handlers/upscale';
import { upscaleImage, upscaleRgb } from './upscale';

const COFFEE = path.join(FIXTURES, 'coffee-300.png');

describe('upscaling on the converted ESRGAN models (CPU)', () => {
  let runtime: InferenceRuntime;
  const sessions = new Map<number, { model: ModelEntry; session: ModelSession }>();

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    for (const factor of [2, 4]) {
      const chosen = chooseUpscaleModel(MODELS_DIR, factor);
      if (!chosen) throw new Error(`no x${factor} model prepared: run npm run models`);
      sessions.set(factor, { model: chosen.model, session: await runtime.load(chosen.file) });
    }
  }, 60_000);
  afterAll(() => runtime.close());

  it('prefers the slim models (the measured default) and knows all prepared ones', () => {
    expect(sessions.get(2)!.model.id).toBe('esrgan-slim-x2');
    expect(sessions.get(4)!.model.id).toBe('esrgan-slim-x4');
    expect(modelsForTask('upscale').length).toBeGreaterThanOrEqual(4);
  });

  it('multiplies the dimensions by the factor and writes provenance', async () => {
    const input = await sharp(COFFEE).extract({ left: 80, top: 40, width: 60, height: 40 }).png().toBuffer();
    for (const factor of [2, 4]) {
      const { model, session } = sessions.get(factor)!;
      const out = await upscaleImage(session, model, input, { outputFormat: 'jpeg' });
      const meta = await sharp(out.data).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([60 * factor, 40 * factor, 'jpeg']);
      expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
    }
  });

  it('tiles seamlessly: a tiled result equals the untiled one away from the borders', async () => {
    const { model, session } = sessions.get(2)!;
    const img = await decodeImage(await sharp(COFFEE).extract({ left: 60, top: 30, width: 120, height: 100 }).png().toBuffer());
    const whole = await upscaleRgb(session, model, img.data, img.width, img.height, { tileSize: 512 });
    let tiles = 0;
    const tiled = await upscaleRgb(session, model, img.data, img.width, img.height, { tileSize: 48, blend: 4 }, async (_done, total) => {
      tiles = total;
    });
    expect(tiles).toBeGreaterThanOrEqual(9);
    let maxDiff = 0;
    let sum = 0;
    for (let i = 0; i < whole.length; i++) {
      const d = Math.abs(whole[i]! - tiled[i]!);
      maxDiff = Math.max(maxDiff, d);
      sum += d;
    }
    // Rounding to bytes before blending may move a value by one level; nothing more.
    expect(maxDiff).toBeLessThanOrEqual(1);
    expect(sum / whole.length).toBeLessThan(0.05);
  });

  it('refuses a result above the output limit as an input error', async () => {
    const { model, session } = sessions.get(4)!;
    const big = await sharp({ create: { width: 2600, height: 2600, channels: 3, background: '#888' } }).png().toBuffer();
    await expect(upscaleImage(session, model, big, { outputFormat: 'png' })).rejects.toThrow(ImageInputError);
  });

  it('upscales the alpha channel separately and keeps it in PNG and WebP', async () => {
    const { model, session } = sessions.get(2)!;
    // Left half opaque, right half transparent.
    const rgba = Buffer.alloc(32 * 16 * 4);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 32; x++) rgba.set([200, 120, 40, x < 16 ? 255 : 0], (y * 32 + x) * 4);
    const input = await sharp(rgba, { raw: { width: 32, height: 16, channels: 4 } }).png().toBuffer();
    const out = await upscaleImage(session, model, input, { outputFormat: 'png' });
    const { data, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([64, 32, 4]);
    expect(data[(10 * 64 + 5) * 4 + 3]).toBe(255);
    expect(data[(10 * 64 + 60) * 4 + 3]).toBe(0);
    const webp = await upscaleImage(session, model, input, { outputFormat: 'webp' });
    expect((await sharp(webp.data).metadata()).hasAlpha).toBe(true);
  });
});
