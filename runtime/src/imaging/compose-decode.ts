import sharp from 'sharp';
import type { ProductPhotoLayout } from '@imagestudio/contracts';
import { ComposeInputError, MAX_INPUT_PIXELS } from './compose-input';
import type { RawImage } from './encode';
import { keepsRgbProfile } from './icc';
import type { Matte } from './subject-box';

/** The composition engine's inputs as raw pixels: the foreground, the matte, and the matte cut to the `roi`. */

/** Decoder options for a stored input: bounded in pixels, refusing damaged files, the first page only. */
const DECODE_OPTIONS = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 } as const;

/** The foreground as raw sRGB (3 or 4 channels); an encoded one tagged with an RGB profile keeps it. */
export async function foregroundPixels(image: RawImage | Buffer): Promise<RawImage> {
  if (!Buffer.isBuffer(image)) {
    if (image.channels === 1) throw new ComposeInputError('foregroundNotColour');
    return image;
  }
  try {
    // A stored foreground tagged with an RGB profile (a P3 photo's cut-out) keeps its pixels and its profile.
    let pipeline = sharp(image, DECODE_OPTIONS);
    const meta = await pipeline.metadata();
    const icc = keepsRgbProfile(meta.icc, meta.space) ? meta.icc : null;
    if (icc) pipeline = pipeline.keepIccProfile();
    const { data, info } = await pipeline
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3, icc };
  } catch {
    throw new ComposeInputError('foregroundUnreadable');
  }
}

/** The matte as raw one-channel bytes (an encoded one's first channel). */
export async function mattePixels(matte: Matte | Buffer): Promise<Matte> {
  if (!Buffer.isBuffer(matte)) return matte;
  try {
    const { data, info } = await sharp(matte, DECODE_OPTIONS)
      .extractChannel(0)
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw new ComposeInputError('matteUnreadable');
  }
}

/** The matte with everything outside the region of interest cleared (the `roi` option). */
export async function clearOutside(matte: Matte, roi: NonNullable<ProductPhotoLayout['roi']>): Promise<Matte> {
  const { width, height } = matte;
  const at = (side: { value: number; unit: '%' | 'px' }, size: number) =>
    Math.min(size, Math.max(0, Math.round(side.unit === '%' ? (side.value / 100) * size : side.value)));
  const left = at(roi.left, width);
  const top = at(roi.top, height);
  const right = Math.max(left, at(roi.right, width));
  const bottom = Math.max(top, at(roi.bottom, height));
  const cleared = Buffer.alloc(width * height);
  if (right > left && bottom > top) {
    const inside = await sharp(matte.data, { raw: { width, height, channels: 1 } })
      .extract({ left, top, width: right - left, height: bottom - top })
      // One channel out (libvips would otherwise hand back sRGB).
      .extractChannel(0)
      .raw()
      .toBuffer();
    for (let y = 0; y < bottom - top; y += 1)
      inside.copy(cleared, (top + y) * width + left, y * (right - left), (y + 1) * (right - left));
  }
  return { data: cleared, width, height };
}
