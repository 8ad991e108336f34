import path from 'node:path';
import sharp from 'sharp';
import type { UpscaleModel } from '@imagestudio/contracts';
import { loadWorkerConfig } from '../config';
import type { InferenceRuntime } from '../inference';
import { ImageInputError, decodeImage } from '../imaging/decode';
import { createLogger } from '@imagestudio/runtime';
import { FIXTURES, MODELS_DIR, startCpuRuntime } from '../test-support/models';
import { loadUpscalers } from '../handlers/upscale';
import { type Upscaler, upscaleImage, upscaleRgb } from './upscale';

const COFFEE = path.join(FIXTURES, 'coffee-300.png');

describe('upscaling on the converted models (CPU)', () => {
  let runtime: InferenceRuntime;
  let runs: Awaited<ReturnType<typeof loadUpscalers>>['runs'];
  const get = (model: UpscaleModel, factor: 2 | 4): Upscaler => {
    const upscaler = runs.get(model)?.get(factor);
    if (!upscaler) throw new Error(`${model} x${factor} not loaded: run npm run models`);
    return upscaler;
  };

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    // cuda listed first: photo-max must still stay off when only the CPU provider can load it.
    const config = loadWorkerConfig({
      S3_ENDPOINT: 'http://127.0.0.1:1',
      MODELS_DIR,
      WORKER_EXECUTION_PROVIDERS: 'cuda,cpu',
    });
    ({ runs } = await loadUpscalers({ config, runtime, logger: createLogger('silent', 'test') }));
  }, 60_000);
  afterAll(() => runtime.close());

  it('maps each model choice to its converted model; photo x2 runs x4 then halves; photo-max needs a GPU', () => {
    const table = [...runs].map(([choice, byFactor]) => [
      choice,
      [...byFactor].map(([f, u]) => `x${f}:${u.model.id}${u.halve ? '/2' : ''}`).sort(),
    ]);
    expect(table).toEqual([
      ['photo', ['x2:realesr-general-x4v3/2', 'x4:realesr-general-x4v3']],
      ['illustration', ['x2:realesr-animevideov3-x2', 'x4:realesr-animevideov3-x4']],
      ['fast', ['x2:esrgan-slim-x2', 'x4:esrgan-slim-x4']],
    ]);
    // One session per model file: photo's x2 and x4 share theirs.
    expect(get('photo', 2).session).toBe(get('photo', 4).session);
  });

  it('multiplies the dimensions by the factor and writes provenance', async () => {
    const input = await sharp(COFFEE).extract({ left: 80, top: 40, width: 60, height: 40 }).png().toBuffer();
    for (const [model, factor] of [
      ['fast', 2],
      ['fast', 4],
      ['photo', 2],
      ['illustration', 4],
    ] as const) {
      const out = await upscaleImage(get(model, factor), input, { outputFormat: 'jpeg' });
      const meta = await sharp(out.data).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([60 * factor, 40 * factor, 'jpeg']);
      expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
    }
  });

  // Tiles overlapping by twice the receptive radius reproduce the untiled result (x2 by halving: radius + 2).
  it.each([
    ['fast', 2, 48, 120, 100],
    ['photo', 4, 152, 164, 160],
    ['photo', 2, 160, 172, 166],
    ['illustration', 2, 92, 150, 120],
  ] as const)(
    'tiles exactly: %s x%i in %i px tiles equals the untiled run within 1/255',
    async (model, factor, tileSize, width, height) => {
      const upscaler = get(model, factor);
      const img = await decodeImage(await sharp(COFFEE).extract({ left: 30, top: 30, width, height }).png().toBuffer());
      const whole = await upscaleRgb(upscaler, img.data, img.width, img.height, { tileSize: 4096 });
      let tiles = 0;
      const tiled = await upscaleRgb(
        upscaler,
        img.data,
        img.width,
        img.height,
        { tileSize, blend: 4 },
        async (_done, total) => {
          tiles = total;
        },
      );
      expect(tiles).toBeGreaterThanOrEqual(4);
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
    },
    60_000,
  );

  it('refuses a result above the output limit as an input error', async () => {
    const big = await sharp({ create: { width: 2600, height: 2600, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    await expect(upscaleImage(get('fast', 4), big, { outputFormat: 'png' })).rejects.toThrow(ImageInputError);
  });

  it('upscales the alpha channel separately and keeps it in PNG and WebP', async () => {
    const upscaler = get('fast', 2);
    // Left half opaque, right half transparent.
    const rgba = Buffer.alloc(32 * 16 * 4);
    for (let y = 0; y < 16; y++)
      for (let x = 0; x < 32; x++) rgba.set([200, 120, 40, x < 16 ? 255 : 0], (y * 32 + x) * 4);
    const input = await sharp(rgba, { raw: { width: 32, height: 16, channels: 4 } })
      .png()
      .toBuffer();
    const out = await upscaleImage(upscaler, input, { outputFormat: 'png' });
    const { data, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([64, 32, 4]);
    expect(data[(10 * 64 + 5) * 4 + 3]).toBe(255);
    expect(data[(10 * 64 + 60) * 4 + 3]).toBe(0);
    const webp = await upscaleImage(upscaler, input, { outputFormat: 'webp' });
    expect((await sharp(webp.data).metadata()).hasAlpha).toBe(true);
  });
});
