import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { InferenceRuntime } from '../inference';
import { defaultModel, preparedModelFile } from '../models';
import { removeBackground } from '../pipelines/remove-background';
import { upscaleImage } from '../pipelines/upscale';
import { UPSCALE_CHOICES, firstPrepared } from '../handlers/upscale';

/**
 * The before/after pairs the landing pages and the home strip show, made by the product's own models from
 * the example photos in client/public/examples/: a cut-out per photo and an x4 upscale of a small crop
 * beside the same crop enlarged by a plain resize. Made once (missing files only) and cached next to the
 * photos in client/public/examples/made/, which the client build copies.
 */

/** The photos and what is made from each; names are what the client refers to. */
export const EXAMPLE_CUTOUTS = ['chelsea', 'coffee'] as const;
export const EXAMPLE_UPSCALE = { photo: 'motorcycle', crop: { left: 0.42, top: 0.38, size: 120 }, factor: 4 } as const;
/** Long side of the pictures shown on the pages. */
const SHOWN_PX = 720;

export interface MadeExamples {
  made: string[];
  skipped: string | null;
}

async function writeWebp(file: string, image: Buffer): Promise<void> {
  await sharp(image).webp({ quality: 86, alphaQuality: 90 }).toFile(file);
}

/** Makes every missing example into `outDir`; answers what it made, or why it could not (no models). */
export async function makeExamples(photosDir: string, outDir: string, modelsDir: string): Promise<MadeExamples> {
  const wanted = [
    ...EXAMPLE_CUTOUTS.map((name) => `${name}-no-background.webp`),
    `${EXAMPLE_UPSCALE.photo}-before.webp`,
    `${EXAMPLE_UPSCALE.photo}-x4.webp`,
  ];
  const missing = wanted.filter((f) => !fs.existsSync(path.join(outDir, f)));
  if (missing.length === 0) return { made: [], skipped: null };
  const matting = defaultModel('background-removal');
  const mattingFile = matting ? preparedModelFile(modelsDir, matting) : null;
  // The default (photo) model, as a customer's upscale would run.
  const upscaler = firstPrepared(modelsDir, UPSCALE_CHOICES.photo.x4);
  if (!matting || !mattingFile || !upscaler)
    return { made: [], skipped: 'the models are not prepared yet (npm run models)' };

  fs.mkdirSync(outDir, { recursive: true });
  const runtime = await InferenceRuntime.start({ providers: ['cpu'], requireGpu: false, cpuThreads: 2 });
  const made: string[] = [];
  try {
    const photo = (name: string) => path.join(photosDir, `${name}.webp`);
    const cutout = await runtime.load(mattingFile);
    for (const name of EXAMPLE_CUTOUTS) {
      const file = path.join(outDir, `${name}-no-background.webp`);
      if (fs.existsSync(file)) continue;
      const input = await sharp(photo(name))
        .resize(SHOWN_PX, SHOWN_PX, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
      const out = await removeBackground(cutout, matting, input, { outputFormat: 'png' });
      await writeWebp(file, out.data);
      made.push(file);
    }
    const { photo: name, crop, factor } = EXAMPLE_UPSCALE;
    if (!missing.includes(`${name}-x4.webp`) && !missing.includes(`${name}-before.webp`))
      return { made, skipped: null };
    const meta = await sharp(photo(name)).metadata();
    const region = {
      left: Math.round(meta.width! * crop.left),
      top: Math.round(meta.height! * crop.top),
      width: crop.size,
      height: crop.size,
    };
    const small = await sharp(photo(name)).extract(region).png().toBuffer();
    const side = crop.size * factor;
    // The "before" is the same crop brought to the result's size by a plain resize: what enlarging without the model gives.
    await writeWebp(
      path.join(outDir, `${name}-before.webp`),
      await sharp(small).resize(side, side, { kernel: 'cubic' }).png().toBuffer(),
    );
    const session = await runtime.load(upscaler.file);
    const upscaled = await upscaleImage(
      { session, model: upscaler.model, tileSize: UPSCALE_CHOICES.photo.tileSize },
      small,
      { outputFormat: 'png' },
    );
    await writeWebp(path.join(outDir, `${name}-x4.webp`), upscaled.data);
    made.push(`${name}-before.webp`, `${name}-x4.webp`);
  } finally {
    await runtime.close();
  }
  return { made, skipped: null };
}
