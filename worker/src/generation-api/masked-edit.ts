import { UnrecoverableError } from 'bullmq';
import sharp from 'sharp';
import { WORKER_USER_MESSAGES } from '@imagestudio/contracts';
import type { DecodedImage } from '../imaging/decode';
import type { ImagesEditRequest } from './images-api';

/**
 * One masked edit of a photo by the images API, as the tools that repaint part of a photo (AI background, erase)
 * make it: the photo and its mask scaled to the size the API is asked for, the call, and the answer stretched
 * back to the photo's own frame. What the tool then keeps of the answer is its own business.
 */

/** A keep-map's value from which a pixel is kept rather than repainted (one byte per pixel, 255 = keep). */
const KEEP_THRESHOLD = 128;

export interface MaskedEditOptions {
  prompt: string;
  /** The size to ask of the API for a photo of this size. */
  apiSize: (width: number, height: number) => { width: number; height: number };
  /** The images API's edit call (ImagesApi.edit, bound to the job's cancel check). */
  edit: (request: ImagesEditRequest) => Promise<Buffer>;
}

/**
 * The photo (RGB PNG) and its mask at the API's size: the mask is the photo made transparent (alpha 0) wherever
 * it must be repainted and opaque (255) where it is kept, which is how these APIs read a mask. `keep` is one byte
 * per photo pixel, cut at KEEP_THRESHOLD after scaling: soft edges are the caller's business, not the API's.
 */
async function editInputs(
  image: DecodedImage,
  keep: Buffer,
  size: { width: number; height: number },
): Promise<{ image: Buffer; mask: Buffer }> {
  const { width, height } = image;
  const rgb = await sharp(image.data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .resize(size.width, size.height, { fit: 'fill' })
    .raw()
    .toBuffer();
  const small = await sharp(keep, { raw: { width, height, channels: 1 } })
    .resize(size.width, size.height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgba = Buffer.alloc(size.width * size.height * 4);
  for (let i = 0; i < small.length; i++) {
    rgba[i * 4] = rgb[i * 3]!;
    rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
    rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
    rgba[i * 4 + 3] = small[i]! >= KEEP_THRESHOLD ? 255 : 0;
  }
  const raw = { width: size.width, height: size.height };
  const [photo, mask] = await Promise.all([
    sharp(rgb, { raw: { ...raw, channels: 3 } })
      .png()
      .toBuffer(),
    sharp(rgba, { raw: { ...raw, channels: 4 } })
      .png()
      .toBuffer(),
  ]);
  return { image: photo, mask };
}

/**
 * Asks the API to repaint where `keep` is below KEEP_THRESHOLD and returns its picture as raw RGB at the photo's
 * size: the API may answer at another size than asked, so the answer is stretched back to the photo's frame.
 */
export async function maskedEdit(
  image: DecodedImage,
  keep: Buffer,
  options: MaskedEditOptions,
): Promise<{ data: Buffer; width: number; height: number; channels: 3 }> {
  const apiSize = options.apiSize(image.width, image.height);
  const inputs = await editInputs(image, keep, apiSize);
  const painted = await options.edit({ ...inputs, prompt: options.prompt, size: `${apiSize.width}x${apiSize.height}` });
  try {
    const data = await sharp(painted)
      .resize(image.width, image.height, { fit: 'fill' })
      .removeAlpha()
      // A grey answer is widened to RGB, so every caller reads three channels a pixel.
      .toColourspace('srgb')
      .raw()
      .toBuffer();
    return { data, width: image.width, height: image.height, channels: 3 };
  } catch {
    // A broken reply is not the user's photo's fault, and a retry would be charged by the API again.
    throw new UnrecoverableError(`${WORKER_USER_MESSAGES.serviceFailed} (images API: reply is not a readable image)`);
  }
}
