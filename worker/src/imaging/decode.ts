import sharp from 'sharp';
import { HeicDecodeError, decodeHeic, keepsRgbProfile } from '@imagestudio/runtime/imaging';

/** Formats the worker accepts; SVG and other vector/scripted formats are refused on purpose. */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'tiff', 'gif', 'avif', 'heif'] as const;

/** Decoder limits: explicit, so a decompression bomb fails fast instead of eating the worker's memory. */
export interface DecodeLimits {
  /** Largest width*height accepted. */
  maxPixels: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxPixels: 8192 * 8192 };

/**
 * 8-bit pixels, RGBA interleaved, EXIF orientation applied: in the colour space of the input's RGB ICC profile
 * when it has one (`icc`, e.g. Display P3; results are tagged with it), else sRGB.
 */
export interface DecodedImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
  /** Whether the input had an alpha channel (otherwise alpha is all 255). */
  hasAlpha: boolean;
  /** The input's container format, as sharp names it. */
  format: string;
  /**
   * The input's RGB ICC profile, which the pixels are still in; null or absent: sRGB (or converted to it).
   * Optional so that images made elsewhere (tests, generation) need not name it.
   */
  icc?: Buffer | null;
}

/** A file the user must replace (corrupt, unsupported, too large): the caller maps it to an UnrecoverableError. */
export class ImageInputError extends Error {}

/**
 * Decodes any accepted input to 8-bit RGBA with EXIF orientation applied: greyscale, CMYK (through its ICC
 * profile or sharp's default), 16-bit and palette inputs all end up the same way. An RGB input with an ICC
 * profile keeps its own colours and the profile (no conversion to sRGB); every other piece of metadata (EXIF
 * with GPS and camera, XMP, comments) is dropped. HEVC-coded HEIF goes through libheif (heic.ts).
 */
export async function decodeImage(input: Buffer, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): Promise<DecodedImage> {
  const options = { limitInputPixels: limits.maxPixels, failOn: 'error' as const, autoOrient: true };
  let meta;
  try {
    meta = await sharp(input, options).metadata();
  } catch (err) {
    throw new ImageInputError(describeDecodeError(err as Error));
  }
  if (!meta.format || !(ACCEPTED_FORMATS as readonly string[]).includes(meta.format)) {
    throw new ImageInputError(
      `This file type is not supported${meta.format ? ` (${meta.format})` : ''}. Use JPEG, PNG, WebP, TIFF, GIF, AVIF or HEIF.`,
    );
  }
  const icc = keepsRgbProfile(meta.icc, meta.space) ? meta.icc : null;
  if (meta.format === 'heif' && meta.compression === 'hevc') return decodeHevc(input, limits, icc);
  try {
    // autoOrient applies the EXIF orientation; toColourspace turns grey/CMYK/16-bit into 8-bit sRGB, and
    // keepIccProfile stops sharp converting an RGB input from its embedded profile to sRGB first.
    let pipeline = sharp(input, { ...options, pages: 1 });
    if (icc) pipeline = pipeline.keepIccProfile();
    const { data, info } = await pipeline
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`unexpected channel count ${info.channels}`);
    return {
      data,
      width: info.width,
      height: info.height,
      channels: 4,
      hasAlpha: meta.hasAlpha === true,
      format: meta.format,
      icc,
    };
  } catch (err) {
    throw new ImageInputError(describeDecodeError(err as Error));
  }
}

/** A HEIC's pixels from libheif; its size was already read from the container by sharp. */
async function decodeHevc(input: Buffer, limits: DecodeLimits, icc: Buffer | null): Promise<DecodedImage> {
  try {
    const heic = await decodeHeic(input, limits.maxPixels);
    return { ...heic, channels: 4, format: 'heif', icc };
  } catch (err) {
    if (err instanceof HeicDecodeError && err.tooLarge) throw new ImageInputError(describeDecodeError(PIXEL_LIMIT));
    throw new ImageInputError(describeDecodeError(err as Error));
  }
}

const PIXEL_LIMIT = new Error('pixel limit');

function describeDecodeError(err: Error): string {
  if (/pixel limit/i.test(err.message)) return 'The image is too large: at most 8192 x 8192 pixels.';
  return 'The file could not be read as an image: it may be damaged or in an unsupported format.';
}
