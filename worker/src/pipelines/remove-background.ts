import sharp from 'sharp';
import {
  cutoutConfidence,
  productPhotoRequestSchema,
  type ProductPhotoLayout,
  type SubjectBox,
} from '@imagestudio/contracts';
import { ComposeInputError, composeProductPhoto, insertPngIcc, type EncodeFormat } from '@imagestudio/runtime/imaging';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { type DecodedImage, ImageInputError, decodeImage } from '../imaging/decode';
import { decontaminateEdges, guidedFilterAlpha, maskToBytes } from '../imaging/matting';
import { refineMatte } from '../imaging/matte-refinement';
import { type MattingSpec, inferMatte, mattingSpecOf } from './matting-spec';
import { BACKGROUND_REMOVAL_PROVENANCE, COMPOSE_REFUSAL_MESSAGES } from './compose-refusals';

/**
 * Background removal from decoded pixels to encoded bytes; the job handler adds S3, progress and cancellation,
 * the benchmark calls it directly. `step(stage)` is awaited between stages.
 */

export type EdgeRefinement = 'none' | 'guided' | 'decontaminate' | 'guided-decontaminate';

/** Chosen by the measured comparison in worker/README.md ("Edge refinement"). */
export const DEFAULT_EDGE_REFINEMENT: EdgeRefinement = 'decontaminate';

export interface RemoveBackgroundOptions {
  /** The product-photo layout (docs/product-photos.md); without it, the fields below say it (older payloads). */
  layout?: ProductPhotoLayout;
  /** The encoded background image of a layout whose background is `image`. */
  backgroundImage?: Buffer;
  outputFormat?: 'png' | 'webp' | 'avif' | 'jpeg' | 'auto';
  /** '#rrggbb' behind the subject (older payloads; a layout's background replaces it). */
  backgroundColor?: string;
  maskOnly?: boolean;
  refinement?: EdgeRefinement;
  /** Also encode what a later re-composition needs (the job handler stores it beside the result). */
  keepSources?: boolean;
}

/** The full-size cut-out a re-composition renders from: both lossless PNGs. */
export interface ComposeSourceFiles {
  /** The decontaminated image, opaque (the colour of every pixel, the background's too). */
  foreground: Buffer;
  /** The matte times the input's own alpha, greyscale. */
  matte: Buffer;
}

export interface PipelineOutput {
  data: Buffer;
  width: number;
  height: number;
  /** The format `data` is in (`auto` decided). */
  format: EncodeFormat;
  /** The subject's box in result pixels (null when the matte holds no subject). */
  subjectBox: SubjectBox | null;
  /** The refined alpha at the input's size (one byte per pixel), for tests and comparisons. */
  alpha: Buffer;
  /** How far the refined matte can be trusted (0-1, two decimals; contracts' cutoutConfidence); null without a subject. */
  cutoutConfidence: number | null;
  /** With keepSources: the stored cut-out, at the input's size. */
  sources?: ComposeSourceFiles & { width: number; height: number };
  timings: Record<string, number>;
}

/** The layout of a payload or of options from before layouts (format, #rrggbb colour, mask only). */
export function layoutOf(options: RemoveBackgroundOptions): ProductPhotoLayout {
  return (
    options.layout ??
    productPhotoRequestSchema.parse({
      output_format: options.outputFormat,
      background_color: options.backgroundColor,
      mask_only: options.maskOnly,
    })
  );
}

/** Both source files of a re-composition: lossless and quick to write (they are read back whole, not shown). */
async function encodeSources(image: DecodedImage, alpha: Buffer): Promise<ComposeSourceFiles> {
  const { width, height } = image;
  let matte = alpha;
  if (image.hasAlpha) {
    // The input's own alpha joins the matte, so the opaque foreground and the matte say everything.
    matte = Buffer.allocUnsafe(alpha.length);
    for (let i = 0; i < alpha.length; i++) matte[i] = Math.round((alpha[i]! * image.data[i * 4 + 3]!) / 255);
  }
  const [foreground, matteFile] = await Promise.all([
    sharp(image.data, { raw: { width, height, channels: 4 } })
      .removeAlpha()
      .png({ compressionLevel: 3 })
      .toBuffer(),
    // sharp widens one-channel raw input to sRGB unless told it is greyscale.
    sharp(matte, { raw: { width, height, channels: 1 } })
      .toColourspace('b-w')
      .png({ compressionLevel: 3 })
      .toBuffer(),
  ]);
  // Tagged with the input's profile, so a re-composition of a P3 photo stays P3 too.
  return { foreground: image.icc ? insertPngIcc(foreground, image.icc) : foreground, matte: matteFile };
}

type Step = (stage: string) => Promise<void>;

/** Runs the matting model on an image and returns its alpha at the image's size (unrefined). */
export async function predictAlpha(
  session: ModelRunner,
  model: ModelEntry | MattingSpec,
  image: DecodedImage,
  timings: Record<string, number> = {},
): Promise<Buffer> {
  const spec = mattingSpecOf(model);
  let t = performance.now();
  // The model was trained on images stretched to its square input; aspect is restored when resizing back.
  // A photo enlarged to that input is enlarged bilinearly, as the model's training data was: Lanczos' sharper,
  // ringing edges moved small photos' silhouettes by about a pixel (mask IoU with the same weights as imgly runs
  // them 0.978 instead of 0.981 on the 451 px cat). A larger photo is reduced with Lanczos, whose antialiasing
  // keeps thin hair that a bilinear reduction thins out (a fifth fewer soft outline pixels on the cat at 1500 px).
  const enlarging = image.width <= spec.width && image.height <= spec.height;
  const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .resize(spec.width, spec.height, { fit: 'fill', kernel: enlarging ? 'linear' : 'lanczos3' })
    .raw()
    .toBuffer();
  timings.prepare = (timings.prepare ?? 0) + performance.now() - t;
  t = performance.now();
  const { matte, ms } = await inferMatte(session, spec, resized);
  timings.infer = performance.now() - t;
  timings.inferBare = ms;
  t = performance.now();
  const alpha = await sharp(maskToBytes(matte), { raw: { width: spec.width, height: spec.height, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  timings.postprocess = performance.now() - t;
  return alpha;
}

/** Decode -> model -> refine -> compose (the product-photo engine, docs/product-photos.md) -> encode. */
export async function removeBackground(
  session: ModelRunner,
  model: ModelEntry | MattingSpec,
  input: Buffer,
  options: RemoveBackgroundOptions,
  step: Step = async () => undefined,
): Promise<PipelineOutput> {
  const layout = layoutOf(options);
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  timings.decode = performance.now() - t;
  await step('prepared');
  let alpha = await predictAlpha(session, model, image, timings);
  await step('inferred');
  t = performance.now();
  alpha = refineMatte(alpha, image); // solid subjects stay solid, far specks go (worker/README.md "Matte refinement")
  const refinement = options.refinement ?? DEFAULT_EDGE_REFINEMENT;
  const rgba = image.data;
  if (refinement === 'guided' || refinement === 'guided-decontaminate') {
    // Radius scales with the image so the filter sees the same neighbourhood at any resolution.
    const r = Math.max(2, Math.round(Math.max(image.width, image.height) / 256));
    alpha = guidedFilterAlpha(rgba, alpha, image.width, image.height, r, 1e-4);
  }
  // Edge pixels get their foreground colour back, so neither transparency nor a new background shows a halo
  // (also for a mask alone when the cut-out is kept for re-composition).
  const decontaminate = refinement === 'decontaminate' || refinement === 'guided-decontaminate';
  if (decontaminate && (!layout.maskOnly || options.keepSources))
    decontaminateEdges(rgba, alpha, image.width, image.height);
  timings.refine = performance.now() - t;
  // The result and the stored sources are encoded at the same time (libvips runs each on a thread of its own, and
  // zlib is single-threaded), and the confidence score, plain JavaScript, is worked out while they run.
  t = performance.now();
  const composing = composeProductPhoto({
    // The input's colour profile goes with its pixels (a P3 photo stays P3); the matte has none.
    foreground: { data: rgba, width: image.width, height: image.height, channels: 4, icc: image.icc },
    matte: { data: alpha, width: image.width, height: image.height },
    backgroundImage: options.backgroundImage,
    layout,
    opaque: !image.hasAlpha,
    provenance: BACKGROUND_REMOVAL_PROVENANCE,
  }).catch((err: unknown) => {
    // A background image that cannot be used is the user's to replace.
    throw err instanceof ComposeInputError ? new ImageInputError(COMPOSE_REFUSAL_MESSAGES[err.code]) : err;
  });
  const encodingSources = options.keepSources ? encodeSources(image, alpha) : undefined;
  // Awaited below; marked handled now, so a refusal that comes while the score is worked out is not an unhandled
  // rejection.
  for (const p of [composing, encodingSources]) p?.catch(() => undefined);
  // Until both have handed their pixels to libvips (the composition's JavaScript steps run in between).
  await new Promise((resolve) => setImmediate(resolve));
  const tc = performance.now();
  // From the matte every output is made of (the picture, the mask, the stored cut-out), whatever the layout.
  const confidence = cutoutConfidence(alpha, image.width, image.height)?.confidence ?? null;
  timings.confidence = performance.now() - tc;
  const [composed, sourceFiles] = await Promise.all([composing, encodingSources]);
  // The encoding's wall time, the sources' included, without the score's.
  timings.encode = performance.now() - t - timings.confidence;
  const sources: PipelineOutput['sources'] = sourceFiles && {
    ...sourceFiles,
    width: image.width,
    height: image.height,
  };
  await step('encoded');
  return {
    data: composed.data,
    width: composed.width,
    height: composed.height,
    format: composed.format,
    subjectBox: composed.subjectBox,
    alpha,
    cutoutConfidence: confidence,
    sources,
    timings,
  };
}
