import sharp from 'sharp';
import { DEFAULT_PRODUCT_PHOTO_LAYOUT, type ProductPhotoLayout } from '@imagestudio/contracts';
import { ComposeInputError, composeProductPhoto, type ComposeProvenance } from '@imagestudio/runtime/imaging';
import { type MaskedEditOptions, maskedEdit } from '../generation-api/masked-edit';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { ImageInputError, decodeImage } from '../imaging/decode';
import { refineMatte } from '../imaging/matte-refinement';
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

/** The masked edit's options (the result keeps the photo's own size) and the result's format. */
export interface AiBackgroundOptions extends MaskedEditOptions {
  outputFormat: 'png' | 'webp' | 'jpeg';
}

type Step = (stage: string) => Promise<void>;

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
  // The matte is the keep-map: the subject is kept, everything else repainted.
  const painted = await maskedEdit(image, alpha, options);
  timings.request = performance.now() - t;
  await step('inferred');
  t = performance.now();
  const { width, height } = painted;
  const background = await sharp(painted.data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
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
