import sharp from 'sharp';
import { ERASE_MESSAGES, MASK_PAINTED, maskStrength } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';

/** How far the mask's aspect ratio may stray from the photo's. */
const ASPECT_TOLERANCE = 0.02;

/**
 * Whether the mask has the photo's shape: its aspect ratio within ASPECT_TOLERANCE, or off by no more than the
 * rounding of a scaled copy's sides to whole pixels (a long, thin photo's mask would miss the ratio by more).
 */
function sameShape(mask: { width: number; height: number }, photo: { width: number; height: number }): boolean {
  const ratio = mask.width / mask.height / (photo.width / photo.height);
  if (Math.abs(ratio - 1) <= ASPECT_TOLERANCE) return true;
  const heightFromWidth = (mask.width * photo.height) / photo.width;
  const widthFromHeight = (mask.height * photo.width) / photo.height;
  return Math.abs(mask.height - heightFromWidth) <= 1 || Math.abs(mask.width - widthFromHeight) <= 1;
}

/**
 * Erase's mask against its photo, before anything is charged: the photo's shape (any size: the worker scales it
 * to the photo, so another shape would erase the wrong place), and at least one pixel painted over (an empty
 * mask would pay for a call that changes nothing). 422 naming `mask`. The mask arrives already checked and
 * cleaned like an image (size, pixels, bombs), so decoding it here is safe; one pass over its pixels is cheap
 * next to the upload's own checks.
 */
export async function checkEraseMask(photo: { width: number; height: number }, mask: Buffer): Promise<void> {
  const { data, info } = await sharp(mask)
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (!sameShape(info, photo)) throw validationError({ mask: [ERASE_MESSAGES.maskShape] });
  for (let i = 0; i < data.length; i += 4) if (maskStrength(data, i) >= MASK_PAINTED) return;
  throw validationError({ mask: [ERASE_MESSAGES.maskEmpty] });
}
