import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { InferenceRuntime, type ModelRunner } from '../inference';
import { type ModelEntry, defaultModel, modelsForTask, preparedModelFile } from '../models';
import { removeBackground } from '../pipelines/remove-background';
import { upscaleImage } from '../pipelines/upscale';
import { UPSCALE_CHOICES, firstPrepared } from '../handlers/upscale';

/**
 * The before/after pairs of the home strip and the tool landing pages, made by the worker's own pipelines
 * from the full-resolution fixture photos (worker/src/test-support/fixtures) and committed in
 * client/public/examples/made/ with a manifest of what made them. `npm run examples` rewrites them all;
 * make-examples.test.ts makes them again and fails when the committed files are not what the pipelines make
 * now, so the pages can never keep showing an older cut-out (the strip once showed a cat cut out before the
 * matte refinement existed, its white chin torn away, cached and never made again).
 */

/** How a landing page shows a pair: the width, in CSS pixels, of its widest frame (docs/showcase.md). */
const SHOWN_CSS_PX = 576;
/** Each image is written at 1x and 2x that width, so a 2x screen gets pixels of its own. */
export const EXAMPLE_WIDTHS = [SHOWN_CSS_PX, SHOWN_CSS_PX * 2] as const;

export const EXAMPLES = {
  /** A cut-out of the whole photo. */
  chelsea: { kind: 'cutout', photo: 'chelsea.png' },
  coffee: { kind: 'cutout', photo: 'coffee.png' },
  /**
   * An x4 upscale of a square crop (left/top: fractions of the photo; the engine, tank and badge) beside the same
   * crop enlarged by a plain bicubic resize, which is what enlarging without the model gives. 288 px x4 is the
   * 2x width, so the result is never resized.
   */
  motorcycle: { kind: 'upscale', photo: 'motorcycle_left.png', crop: { left: 0.42, top: 0.38, size: 288 } },
} as const;

export type ExampleName = keyof typeof EXAMPLES;

/**
 * WebP: every browser the client supports decodes it, and it encodes in a fraction of a second where AVIF took
 * 8-10 s an image for 20-30% less. The cat's fur makes a busy alpha plane: alphaQuality 90 made its 2x cut-out
 * 138 KB, 70 makes it about 60 KB with no step visible along the outline at 2x.
 */
const PHOTO_WEBP = { quality: 80, effort: 6 } as const;
const CUTOUT_WEBP = { quality: 80, alphaQuality: 70, effort: 6 } as const;

export const MANIFEST_FILE = 'manifest.json';

/** What a set of examples was made from and what it holds; the test compares it with what it would be now. */
export interface ExamplesManifest {
  /** sha256 of each source photo. */
  photos: Record<string, string>;
  /** The models that made them, with the manifest's sha256 of their files. */
  models: Record<string, string>;
  /** Each file written, with its size in pixels and bytes. */
  files: Record<string, { width: number; height: number; bytes: number }>;
}

export function exampleFile(name: ExampleName, side: 'before' | 'after', width: number): string {
  return `${name}-${side}-${width}.webp`;
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The models the examples need, prepared; null when `npm run models` has not made them. */
export function exampleModels(modelsDir: string): {
  matting: { model: ModelEntry; file: string };
  upscaler: { model: ModelEntry; file: string };
} | null {
  const model = defaultModel('background-removal');
  const file = model && preparedModelFile(modelsDir, model);
  // The photo model at x4, as a customer's default upscale runs it.
  const upscaler = firstPrepared(modelsDir, UPSCALE_CHOICES.photo.x4);
  return model && file && upscaler ? { matting: { model, file }, upscaler } : null;
}

/** The manifest's inputs part (photos and models), from the files as they are now. */
export function currentInputs(photosDir: string): Pick<ExamplesManifest, 'photos' | 'models'> {
  const photos = Object.fromEntries(
    Object.values(EXAMPLES).map(({ photo }) => [photo, sha256(path.join(photosDir, photo))]),
  );
  // From the models manifest, not the cache: the check runs where the models are not prepared too.
  const matting = defaultModel('background-removal');
  const upscaler = modelsForTask('upscale').find((m) => m.id === UPSCALE_CHOICES.photo.x4[0]);
  if (!matting || !upscaler) throw new Error('the models manifest has no background-removal or photo upscale model');
  return { photos, models: { [matting.id]: matting.sha256, [upscaler.id]: upscaler.sha256 } };
}

async function writeSizes(
  outDir: string,
  name: ExampleName,
  side: 'before' | 'after',
  image: Buffer,
  webp: typeof PHOTO_WEBP | typeof CUTOUT_WEBP,
  files: ExamplesManifest['files'],
): Promise<void> {
  for (const width of EXAMPLE_WIDTHS) {
    const file = exampleFile(name, side, width);
    // Lanczos, as the worker reduces; never enlarged here (the sources are made at least 2x wide).
    const { data, info } = await sharp(image)
      .resize({ width, kernel: 'lanczos3', withoutEnlargement: true })
      .webp(webp)
      .toBuffer({ resolveWithObject: true });
    fs.writeFileSync(path.join(outDir, file), data);
    files[file] = { width: info.width, height: info.height, bytes: data.length };
  }
}

/** The photo enlarged by the product's photo upscaler to at least `width` pixels wide (then reduced to it). */
async function enlarge(upscaler: { session: ModelRunner; model: ModelEntry }, photo: Buffer, width: number) {
  const up = await upscaleImage({ ...upscaler, tileSize: UPSCALE_CHOICES.photo.tileSize }, photo, {
    outputFormat: 'png',
  });
  return sharp(up.data).resize({ width, kernel: 'lanczos3' }).png().toBuffer();
}

export interface MakeOptions {
  /** Only these examples (the test makes one of each kind); the manifest is then not written. */
  only?: readonly ExampleName[];
  /** Hears each example's name with the time it took. */
  log?: (line: string) => void;
}

/**
 * Makes the examples into `outDir` (replacing what is there) and, when it made all of them, writes their manifest
 * there; answers the manifest, or null when the models are not prepared.
 */
export async function makeExamples(
  photosDir: string,
  outDir: string,
  modelsDir: string,
  { only, log = () => undefined }: MakeOptions = {},
): Promise<ExamplesManifest | null> {
  const models = exampleModels(modelsDir);
  if (!models) return null;
  fs.mkdirSync(outDir, { recursive: true });
  const widest = EXAMPLE_WIDTHS[EXAMPLE_WIDTHS.length - 1]!;
  const files: ExamplesManifest['files'] = {};
  const runtime = await InferenceRuntime.start({ providers: ['cpu'], requireGpu: false, cpuThreads: 2 });
  try {
    const matting = await runtime.load(models.matting.file);
    const upscaler = { session: await runtime.load(models.upscaler.file), model: models.upscaler.model };
    for (const [name, example] of Object.entries(EXAMPLES) as [ExampleName, (typeof EXAMPLES)[ExampleName]][]) {
      if (only && !only.includes(name)) continue;
      const started = performance.now();
      const photo = fs.readFileSync(path.join(photosDir, example.photo));
      if (example.kind === 'cutout') {
        // The fixture photos are narrower than a 2x screen shows them: the product's upscaler enlarges each
        // first, as a customer would chain the two tools, and the "before" is that same enlarged photo, so the
        // pair differs only by what the background removal did.
        const before = await enlarge(upscaler, photo, widest);
        const cutout = await removeBackground(matting, models.matting.model, before, { outputFormat: 'png' });
        await writeSizes(outDir, name, 'before', before, PHOTO_WEBP, files);
        await writeSizes(outDir, name, 'after', cutout.data, CUTOUT_WEBP, files);
      } else {
        const meta = await sharp(photo).metadata();
        const { left, top, size } = example.crop;
        const region = {
          left: Math.round(meta.width * left),
          top: Math.round(meta.height * top),
          width: size,
          height: size,
        };
        const small = await sharp(photo).extract(region).png().toBuffer();
        const scale = 4;
        const plain = await sharp(small)
          .resize(size * scale, size * scale, { kernel: 'cubic' })
          .png()
          .toBuffer();
        const upscaled = await upscaleImage({ ...upscaler, tileSize: UPSCALE_CHOICES.photo.tileSize }, small, {
          outputFormat: 'png',
        });
        await writeSizes(outDir, name, 'before', plain, PHOTO_WEBP, files);
        await writeSizes(outDir, name, 'after', upscaled.data, PHOTO_WEBP, files);
      }
      log(`${name}: ${Math.round(performance.now() - started)} ms`);
    }
  } finally {
    await runtime.close();
  }
  const manifest: ExamplesManifest = { ...currentInputs(photosDir), files };
  if (!only) fs.writeFileSync(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * What makes the committed examples stale without running a model: a photo or a model that changed since they
 * were made, or a file missing, extra or not the one made. Empty when they are current as far as that shows
 * (the test also makes them again to catch a change in the pipelines' code). Cheap enough for every build.
 */
export function staleExamples(photosDir: string, outDir: string): string[] {
  const manifestFile = path.join(outDir, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) return [`${MANIFEST_FILE} is missing`];
  const made = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as ExamplesManifest;
  const now = currentInputs(photosDir);
  const problems: string[] = [];
  for (const part of ['photos', 'models'] as const)
    for (const key of new Set([...Object.keys(made[part]), ...Object.keys(now[part])]))
      if (made[part][key] !== now[part][key]) problems.push(`${part}: ${key} changed since the examples were made`);
  const wanted = Object.keys(EXAMPLES).flatMap((name) =>
    (['before', 'after'] as const).flatMap((side) =>
      EXAMPLE_WIDTHS.map((w) => exampleFile(name as ExampleName, side, w)),
    ),
  );
  const onDisk = fs.readdirSync(outDir).filter((f) => f !== MANIFEST_FILE);
  for (const file of new Set([...wanted, ...onDisk, ...Object.keys(made.files)])) {
    const listed = made.files[file];
    if (!wanted.includes(file)) problems.push(`${file} is not an example`);
    else if (!listed) problems.push(`${file} is not in ${MANIFEST_FILE}`);
    else if (!onDisk.includes(file)) problems.push(`${file} is missing`);
    else if (fs.statSync(path.join(outDir, file)).size !== listed.bytes) problems.push(`${file} is not the file made`);
    // A srcset's w descriptor is the width in the name: a narrower file would be drawn blurred.
    else if (!file.endsWith(`-${listed.width}.webp`)) problems.push(`${file} is ${listed.width} px wide`);
  }
  return problems;
}
