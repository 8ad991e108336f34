import sharp from 'sharp';

/** Formats the worker accepts; SVG and other vector/scripted formats are refused on purpose. */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'tiff', 'gif', 'avif', 'heif'] as const;

/** Decoder limits: explicit, so a decompression bomb fails fast instead of eating the worker's memory. */
export interface DecodeLimits {
  /** Largest width*height accepted. */
  maxPixels: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxPixels: 8192 * 8192 };

/** 8-bit sRGB pixels, RGBA interleaved, EXIF orientation applied. */
export interface DecodedImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
  /** Whether the input had an alpha channel (otherwise alpha is all 255). */
  hasAlpha: boolean;
  /** The input's container format, as sharp names it. */
  format: string;
}

/** A file the user must replace (corrupt, unsupported, too large): the caller maps it to an UnrecoverableError. */
export class ImageInputError extends Error {}

/**
 * Decodes any accepted input to 8-bit sRGB RGBA with EXIF orientation applied: greyscale, CMYK (through its
 * ICC profile or sharp's default), 16-bit and palette inputs all end up the same way; metadata is dropped.
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
  try {
    // autoOrient applies the EXIF orientation; toColourspace turns grey/CMYK/16-bit into 8-bit sRGB.
    const { data, info } = await sharp(input, { ...options, pages: 1 })
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
    };
  } catch (err) {
    throw new ImageInputError(describeDecodeError(err as Error));
  }
}

function describeDecodeError(err: Error): string {
  if (/pixel limit/i.test(err.message)) return 'The image is too large: at most 8192 x 8192 pixels.';
  return 'The file could not be read as an image: it may be damaged or in an unsupported format.';
}
