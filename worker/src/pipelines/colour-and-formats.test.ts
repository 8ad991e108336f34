import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@imagestudio/runtime';
import { heifEnc } from '@imagestudio/runtime/testing';
import { composeProductPhoto } from '@imagestudio/runtime/imaging';
import { productPhotoRequestSchema } from '@imagestudio/contracts';
import { loadWorkerConfig } from '../config';
import { loadUpscalers } from '../handlers/upscale';
import type { InferenceRuntime, ModelSession } from '../inference';
import { decodeImage } from '../imaging/decode';
import { FIXTURES, MODELS_DIR, mattingModel, memoRunner, startCpuRuntime } from '../test-support/models';
import { removeBackground } from './remove-background';
import { upscaleImage } from './upscale';

/**
 * A phone photo's colour and metadata through the real tools: a Display P3 input comes back tagged P3 with its
 * own pixel values (no conversion to sRGB), upright, without its EXIF (GPS, camera) and with the provenance XMP.
 */

const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));

/** The coffee photo as a phone would save it: Display P3, stored sideways (EXIF orientation 6), with GPS. */
async function phoneJpeg(source: Buffer): Promise<Buffer> {
  const sideways = await sharp(source).rotate(-90).toBuffer();
  return sharp(sideways)
    .withIccProfile('p3')
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'X1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 34/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Flat, saturated quadrants (red, green, blue, yellow) in Display P3: colours sRGB would move. */
async function p3Card(width = 48, height = 32): Promise<Buffer> {
  const colours = [
    [220, 40, 30],
    [30, 200, 60],
    [40, 60, 210],
    [240, 230, 20],
  ];
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      px.set(colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!, (y * width + x) * 3);
  return sharp(px, { raw: { width, height, channels: 3 } })
    .withIccProfile('p3')
    .png()
    .toBuffer();
}

async function profileOf(image: Buffer): Promise<Buffer | undefined> {
  return (await sharp(image).metadata()).icc;
}

describe('colour profiles and metadata through background removal (real ISNet, CPU)', () => {
  const { model, file } = mattingModel();
  let runtime: InferenceRuntime;
  let session: ModelSession;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    session = await runtime.load(file);
  }, 60_000);
  afterAll(() => runtime.close());

  it('a P3 phone JPEG: P3 out with the same pixel values, upright, GPS and camera EXIF gone, provenance kept', async () => {
    const input = await phoneJpeg(COFFEE);
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.orientation).toBe(6);
    expect(inputMeta.exif?.toString('latin1')).toContain('SecretCam');
    const decoded = await decodeImage(input);
    const runner = memoRunner(session);
    for (const outputFormat of ['png', 'webp'] as const) {
      const out = await removeBackground(runner, model, input, { outputFormat });
      const meta = await sharp(out.data).metadata();
      // Orientation applied: the sideways-stored photo comes back 300x200 as it was shot.
      expect([meta.width, meta.height, meta.orientation]).toEqual([300, 200, undefined]);
      expect(meta.icc?.equals(inputMeta.icc!)).toBe(true);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
      expect(out.data.includes('SecretCam')).toBe(false);
      // The cup's opaque middle keeps the input's P3 values exactly (WebP lossless, PNG truecolor).
      const raw = await sharp(out.data).keepIccProfile().raw().toBuffer();
      for (const [x, y] of [
        [150, 90],
        [140, 100],
      ] as const) {
        const at = (y * 300 + x) * 4;
        expect(raw[at + 3]).toBe(255);
        expect(Array.from(raw.subarray(at, at + 3))).toEqual(Array.from(decoded.data.subarray(at, at + 3)));
      }
    }
  }, 120_000);

  it('a P3 photo laid out on white as a JPEG, and re-composed later from its stored cut-out, stays P3', async () => {
    const input = await sharp(COFFEE).withIccProfile('p3').png().toBuffer();
    const icc = await profileOf(input);
    const layout = productPhotoRequestSchema.parse({ background_color: 'white', output_format: 'jpeg' });
    const out = await removeBackground(memoRunner(session), model, input, { layout, keepSources: true });
    expect(out.format).toBe('jpeg');
    expect((await profileOf(out.data))?.equals(icc!)).toBe(true);
    // The stored foreground carries the profile, so the free re-composition keeps it too.
    expect((await profileOf(out.sources!.foreground))?.equals(icc!)).toBe(true);
    const again = await composeProductPhoto({
      foreground: out.sources!.foreground,
      matte: out.sources!.matte,
      layout: productPhotoRequestSchema.parse({ background_color: 'black', output_format: 'png' }),
      provenance: { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'test' },
    });
    expect((await profileOf(again.data))?.equals(icc!)).toBe(true);
    // Its opaque middle has the input's own P3 values, not values converted to sRGB.
    const src = await sharp(input).keepIccProfile().raw().toBuffer();
    const raw = await sharp(again.data).keepIccProfile().removeAlpha().raw().toBuffer();
    const at = (90 * 300 + 150) * 3;
    expect(Array.from(raw.subarray(at, at + 3))).toEqual(Array.from(src.subarray(at, at + 3)));
  }, 120_000);

  it('a HEIC from a phone is cut out like its JPEG and keeps its P3 profile', async () => {
    const jpeg = await sharp(COFFEE).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const heic = await heifEnc(jpeg, { quality: 90 });
    const out = await removeBackground(session, model, heic, { outputFormat: 'png' });
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height]).toEqual([300, 200]);
    expect(meta.icc?.equals((await sharp(jpeg).metadata()).icc!)).toBe(true);
    const raw = await sharp(out.data).raw().toBuffer();
    expect(raw[(90 * 300 + 150) * 4 + 3]).toBeGreaterThan(240);
    expect(raw[(3 * 300 + 3) * 4 + 3]).toBeLessThan(15);
  }, 120_000);
});

describe('colour profiles through upscaling (converted ESRGAN, CPU)', () => {
  let runtime: InferenceRuntime;
  let runs: Awaited<ReturnType<typeof loadUpscalers>>['runs'];

  beforeAll(async () => {
    runtime = await startCpuRuntime();
    const config = loadWorkerConfig({
      S3_ENDPOINT: 'http://127.0.0.1:1',
      MODELS_DIR,
      WORKER_EXECUTION_PROVIDERS: 'cpu',
    });
    ({ runs } = await loadUpscalers({ config, runtime, logger: createLogger('silent', 'test') }));
  }, 60_000);
  afterAll(() => runtime.close());

  it('a P3 input comes back P3-tagged with its colours within rounding (flat areas), for PNG and JPEG', async () => {
    const upscaler = runs.get('fast')?.get(2);
    if (!upscaler) throw new Error('fast x2 not loaded: run npm run models');
    const input = await p3Card();
    const icc = await profileOf(input);
    const src = await sharp(input).keepIccProfile().raw().toBuffer();
    for (const outputFormat of ['png', 'jpeg'] as const) {
      const out = await upscaleImage(upscaler, input, { outputFormat });
      expect((await profileOf(out.data))?.equals(icc!)).toBe(true);
      const raw = await sharp(out.data).keepIccProfile().removeAlpha().raw().toBuffer();
      // The middle of each quadrant, away from the colour edges the model sharpens.
      for (const [x, y] of [
        [12, 8],
        [36, 8],
        [12, 24],
        [36, 24],
      ] as const) {
        const a = (y * 48 + x) * 3;
        const b = (y * 2 * 96 + x * 2) * 3;
        for (let c = 0; c < 3; c++) expect(Math.abs(raw[b + c]! - src[a + c]!)).toBeLessThanOrEqual(3);
      }
    }
  }, 120_000);
});
