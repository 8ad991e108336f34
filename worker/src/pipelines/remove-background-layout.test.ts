import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { productPhotoRequestSchema } from '@imagestudio/contracts';
import { fromProjectRoot } from '@imagestudio/runtime';
import type { InferenceRuntime, ModelSession } from '../inference';
import { ImageInputError } from '../imaging/decode';
import { FIXTURES, mattingModel, memoRunner, startCpuRuntime } from '../test-support/models';
import { layoutOf, removeBackground } from './remove-background';

/**
 * Background removal with product-photo layouts, on the real ISNet model and the coffee photo: the
 * model's matte goes through the composition engine, and the full-size cut-out is kept for re-composition.
 */
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const CAT = fs.readFileSync(fromProjectRoot('client/public/examples/chelsea.webp'));
const layout = (fields: Record<string, string>) => productPhotoRequestSchema.parse(fields);

describe('background removal with a product-photo layout (real ISNet model, CPU)', () => {
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

  it('crops to the subject onto a white square JPEG, reports its box and keeps the cut-out', async () => {
    const out = await removeBackground(runner, model, COFFEE, {
      layout: layout({
        crop_to_subject: 'true',
        margin: '10%',
        canvas: '1:1',
        max_side: '200',
        background_color: 'white',
        output_format: 'jpeg',
      }),
      keepSources: true,
    });
    expect([out.format, out.width, out.height]).toEqual(['jpeg', 200, 200]);
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['jpeg', 200, 200, false]);
    // The subject's box is the model's matte box, scaled into the 160 px inside the margins and centred.
    const box = out.subjectBox!;
    expect(Math.abs(Math.max(box.width, box.height) - 160)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.left + box.width / 2 - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.top + box.height / 2 - 100)).toBeLessThanOrEqual(1);
    const corner = await sharp(out.data).extract({ left: 1, top: 1, width: 1, height: 1 }).raw().toBuffer();
    for (const c of corner) expect(c).toBeGreaterThanOrEqual(250);

    // The stored cut-out: the photo's colours (opaque, full size) and the model's matte as greyscale.
    const fg = await sharp(out.sources!.foreground).raw().toBuffer({ resolveWithObject: true });
    expect([fg.info.width, fg.info.height, fg.info.channels]).toEqual([300, 200, 3]);
    const src = await sharp(COFFEE).removeAlpha().raw().toBuffer();
    const centre = (90 * 300 + 150) * 3;
    expect(Array.from(fg.data.subarray(centre, centre + 3))).toEqual(Array.from(src.subarray(centre, centre + 3)));
    const matte = sharp(out.sources!.matte);
    expect((await matte.metadata()).channels).toBe(1);
    expect((await matte.extractChannel(0).raw().toBuffer()).equals(out.alpha)).toBe(true);
  }, 60_000);

  it('decides auto (PNG while transparent), writes AVIF, and covers the canvas with a background image', async () => {
    const auto = await removeBackground(runner, model, COFFEE, { layout: layout({ output_format: 'auto' }) });
    expect([auto.format, (await sharp(auto.data).metadata()).hasAlpha]).toEqual(['png', true]);
    expect(auto.sources).toBeUndefined();

    const avif = await removeBackground(runner, model, COFFEE, {
      layout: layout({ output_format: 'avif', quality: '60' }),
    });
    expect([avif.format, (await sharp(avif.data).metadata()).format]).toEqual(['avif', 'heif']);

    const onCat = await removeBackground(runner, model, COFFEE, {
      layout: layout({ background_image: 'true', canvas: '300x300' }),
      backgroundImage: CAT,
    });
    const raw = await sharp(onCat.data).raw().toBuffer({ resolveWithObject: true });
    expect([raw.info.width, raw.info.height, raw.info.channels]).toEqual([300, 300, 3]);
    // The top-left corner is the cat photo's (cover-fitted), not white or black.
    const catCorner = await sharp(CAT)
      .resize(300, 300, { fit: 'cover' })
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    for (let c = 0; c < 3; c++) expect(Math.abs(raw.data[c]! - catCorner[c]!)).toBeLessThanOrEqual(12);

    await expect(
      removeBackground(runner, model, COFFEE, {
        layout: layout({ background_image: 'true' }),
        backgroundImage: Buffer.from('not an image'),
      }),
    ).rejects.toBeInstanceOf(ImageInputError);
    expect(runner.misses).toBeLessThanOrEqual(1); // one inference for the whole test
  }, 60_000);

  it("reads the options of payloads from before layouts as today's layout", () => {
    expect(layoutOf({ outputFormat: 'webp', backgroundColor: '#00ff00', maskOnly: false })).toMatchObject({
      outputFormat: 'webp',
      background: { kind: 'color', rgba: [0, 255, 0, 255] },
      cropToSubject: false,
      canvas: { kind: 'original' },
    });
  });
});
