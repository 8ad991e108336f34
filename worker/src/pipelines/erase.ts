import sharp from 'sharp';
import { ERASE_MESSAGES, maskStrength, MASK_PAINTED } from '@imagestudio/contracts';
import { type MaskedEditOptions, maskedEdit } from '../generation-api/masked-edit';
import { type DecodedImage, ImageInputError, decodeImage } from '../imaging/decode';
import { encodeImage } from '../imaging/encode';
import type { PipelineResult } from '../handlers/job-io';

/**
 * Erase from the uploaded photo and mask to encoded bytes: the mask says which pixels the user painted over, the
 * images API repaints exactly those (its edit call), and every pixel outside the painted area is put back from
 * the photo, so nothing the user did not paint can change however the API treats the rest of the picture.
 */

/**
 * The feather: the API's pixels are blended in over this blur radius (sigma, in photo pixels) inside the painted
 * area's edge, so the fill has no hard seam; outside the painted area no pixel is blended at all.
 */
const FEATHER_SIGMA = 2;

interface EraseOptions extends MaskedEditOptions {
  outputFormat: 'png' | 'webp' | 'jpeg';
}

type Step = (stage: string) => Promise<void>;

/**
 * The painted area at the photo's size, one byte a pixel: 255 where the mask asks to erase, 0 elsewhere. The mask
 * may come at any size of the photo's shape (the server checked the shape): it is stretched to the photo first.
 */
async function paintedArea(mask: Buffer, width: number, height: number): Promise<Buffer> {
  let rgba: Buffer;
  try {
    rgba = await sharp(mask, { failOn: 'error' })
      .autoOrient()
      .resize(width, height, { fit: 'fill' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer();
  } catch {
    throw new ImageInputError(ERASE_MESSAGES.maskUnreadable);
  }
  const painted = Buffer.alloc(width * height);
  let any = false;
  for (let i = 0; i < painted.length; i++) {
    if (maskStrength(rgba, i * 4) >= MASK_PAINTED) {
      painted[i] = 255;
      any = true;
    }
  }
  // The server refuses an empty mask before charging; this catches one that only scaling to the photo emptied.
  if (!any) throw new ImageInputError(ERASE_MESSAGES.maskEmpty);
  return painted;
}

/**
 * How much of the API's picture each pixel takes (0-255): none outside the painted area, and inside it the
 * blurred painting, which is about half at the edge and all of it a few pixels in.
 */
async function fillWeights(painted: Buffer, width: number, height: number): Promise<Buffer> {
  const blurred = await sharp(painted, { raw: { width, height, channels: 1 } })
    .blur(FEATHER_SIGMA)
    .extractChannel(0)
    .raw()
    .toBuffer();
  for (let i = 0; i < blurred.length; i++) if (painted[i] === 0) blurred[i] = 0;
  return blurred;
}

/** The photo with the API's pixels blended in by `weights`; alpha (when the photo has one) is the photo's own. */
function composite(image: DecodedImage, filled: Buffer, weights: Buffer): Buffer {
  const channels = image.hasAlpha ? 4 : 3;
  const out = Buffer.alloc(image.width * image.height * channels);
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    for (let c = 0; c < 3; c++) {
      const own = image.data[i * 4 + c]!;
      out[i * channels + c] = w === 0 ? own : Math.round((own * (255 - w) + filled[i * 3 + c]! * w) / 255);
    }
    if (channels === 4) out[i * 4 + 3] = image.data[i * 4 + 3]!;
  }
  return out;
}

/** Decode -> painted area -> the API's fill -> the photo with the fill inside the painted area only -> encode. */
export async function erase(
  input: Buffer,
  mask: Buffer,
  options: EraseOptions,
  step: Step = async () => undefined,
): Promise<PipelineResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  const painted = await paintedArea(mask, image.width, image.height);
  timings.decode = performance.now() - t;
  await step('prepared');
  t = performance.now();
  const keep = Buffer.alloc(painted.length);
  for (let i = 0; i < painted.length; i++) keep[i] = 255 - painted[i]!;
  const filled = await maskedEdit(image, keep, options);
  timings.request = performance.now() - t;
  await step('inferred');
  t = performance.now();
  const weights = await fillWeights(painted, image.width, image.height);
  const { width, height } = image;
  const channels = image.hasAlpha ? 4 : 3;
  const data = await encodeImage(
    { data: composite(image, filled.data, weights), width, height, channels, icc: image.icc },
    options.outputFormat,
    'compositeWithTrainedAlgorithmicMedia',
    'Image Studio erase',
  );
  timings.encode = performance.now() - t;
  await step('encoded');
  return { data, width, height, timings };
}
