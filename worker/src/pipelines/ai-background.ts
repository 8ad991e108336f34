import { UnrecoverableError } from 'bullmq';
import sharp from 'sharp';
import { DEFAULT_PRODUCT_PHOTO_LAYOUT, WORKER_USER_MESSAGES, type ProductPhotoLayout } from '@imagestudio/contracts';
import { ComposeInputError, composeProductPhoto, type ComposeProvenance } from '@imagestudio/runtime/imaging';
import type { ImagesEditRequest } from '../generation-api/images-api';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { type DecodedImage, ImageInputError, decodeImage } from '../imaging/decode';
import { HALF_ALPHA, refineMatte } from '../imaging/matte-refinement';
import { COMPOSE_REFUSAL_MESSAGES } from './compose-refusals';
import type { PipelineOutput } from './remove-background';
import { predictAlpha } from './remove-background';

/**
 * AI background from decoded pixels to encoded bytes: our matting model finds the subject, a hosted images API
 * paints a new background around it (its edit call, masked by the matte), and the composition engine lays the
 * ORIGINAL subject pixels over that background, so the product is never redrawn however the API treats it.
 */

/** What the picture's XMP says made it. */
const AI_BACKGROUND_PROVENANCE: ComposeProvenance = {
  source: 'compositeWithTrainedAlgorithmicMedia',
  tool: 'Image Studio AI background',
};

export interface AiBackgroundOptions {
  prompt: string;
  /** The size to ask of the API for a photo of this size; the result keeps the photo's own size. */
  apiSize: (width: number, height: number) => { width: number; height: number };
  outputFormat: 'png' | 'webp' | 'jpeg';
  /** The images API's edit call (ImagesApi.edit, bound to the job's cancel check). */
  edit: (request: ImagesEditRequest) => Promise<Buffer>;
}

type Step = (stage: string) => Promise<void>;

/**
 * The photo and its mask at the API's size: the mask is the photo made transparent (alpha 0) wherever the
 * background must be painted and opaque (255) on the subject, which is how these APIs read a mask. The matte is
 * cut at half opacity: its soft edge is the compositor's business, not the API's.
 */
async function editInputs(
  image: DecodedImage,
  alpha: Buffer,
  size: { width: number; height: number },
): Promise<{ image: Buffer; mask: Buffer }> {
  const { width, height } = image;
  const rgb = await sharp(image.data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .resize(size.width, size.height, { fit: 'fill' })
    .raw()
    .toBuffer();
  const small = await sharp(alpha, { raw: { width, height, channels: 1 } })
    .resize(size.width, size.height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgba = Buffer.alloc(size.width * size.height * 4);
  for (let i = 0; i < small.length; i++) {
    rgba[i * 4] = rgb[i * 3]!;
    rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
    rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
    rgba[i * 4 + 3] = small[i]! >= HALF_ALPHA ? 255 : 0;
  }
  const raw = { raw: { width: size.width, height: size.height, channels: 3 as const } };
  const [photo, mask] = await Promise.all([
    sharp(rgb, raw).png().toBuffer(),
    sharp(rgba, { raw: { ...raw.raw, channels: 4 } })
      .png()
      .toBuffer(),
  ]);
  return { image: photo, mask };
}

/** Decode -> matte -> the API's background -> the original subject composed over it -> encode. */
export async function aiBackground(
  session: ModelRunner,
  model: ModelEntry,
  input: Buffer,
  options: AiBackgroundOptions,
  step: Step = async () => undefined,
): Promise<PipelineOutput> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  timings.decode = performance.now() - t;
  await step('prepared');
  let alpha = await predictAlpha(session, model, image, timings);
  t = performance.now();
  alpha = refineMatte(alpha, image);
  timings.refine = performance.now() - t;
  t = performance.now();
  const apiSize = options.apiSize(image.width, image.height);
  const inputs = await editInputs(image, alpha, apiSize);
  const size = `${apiSize.width}x${apiSize.height}`;
  const painted = await options.edit({ ...inputs, prompt: options.prompt, size });
  timings.request = performance.now() - t;
  await step('inferred');
  t = performance.now();
  // The API may answer at another size than asked: the background is stretched back to the photo's frame.
  let background: Buffer;
  try {
    background = await sharp(painted)
      .resize(image.width, image.height, { fit: 'fill' })
      .removeAlpha()
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    // A broken reply is not the user's photo's fault, and a retry would be charged by the API again.
    throw new UnrecoverableError(`${WORKER_USER_MESSAGES.serviceFailed} (images API: reply is not a readable image)`);
  }
  const layout: ProductPhotoLayout = {
    ...DEFAULT_PRODUCT_PHOTO_LAYOUT,
    background: { kind: 'image' },
    outputFormat: options.outputFormat,
  };
  let composed;
  try {
    composed = await composeProductPhoto({
      // The photo's own pixels, not edge-decontaminated: the subject comes back exactly as it was shot, and
      // where the matte is nearly opaque the new background shows through by no more than its share.
      foreground: { data: image.data, width: image.width, height: image.height, channels: 4, icc: image.icc },
      matte: { data: alpha, width: image.width, height: image.height },
      backgroundImage: background,
      layout,
      opaque: !image.hasAlpha,
      provenance: AI_BACKGROUND_PROVENANCE,
    });
  } catch (err) {
    throw err instanceof ComposeInputError ? new ImageInputError(COMPOSE_REFUSAL_MESSAGES[err.code]) : err;
  }
  timings.encode = performance.now() - t;
  await step('encoded');
  return {
    data: composed.data,
    width: composed.width,
    height: composed.height,
    format: composed.format,
    subjectBox: composed.subjectBox,
    alpha,
    cutoutConfidence: null,
    timings,
  };
}
