import sharp from 'sharp';
import { LIMITS, type UploadFormat } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { containerFacts, sniffFormat } from './image-bytes';

export const UPLOAD_MESSAGES = {
  empty: 'The image file is empty.',
  wrongType: 'Only JPEG, PNG and WebP images are accepted.',
  extraData: 'The file contains data after the image. Please upload a plain JPEG, PNG or WebP image.',
  damaged: 'The image file is damaged or incomplete.',
  animated: 'Animated images are not supported.',
  tooManyPixels: `The image is too large: at most ${LIMITS.uploadMaxPixels / 1_000_000} megapixels.`,
  tooLarge: `The image is too large: at most ${LIMITS.uploadMaxBytes / (1024 * 1024)} MB.`,
} as const;

export interface CleanImage {
  format: UploadFormat;
  width: number;
  height: number;
  /** Re-encoded pixels only: EXIF (GPS, camera), XMP, ICC and comments are gone; orientation is applied. */
  bytes: Buffer;
  contentType: string;
}

const reject = (message: string) => validationError({ image: [message] });

/** Re-encoding keeps the format the user sent; quality is high because these are inputs to further work. */
function encode(pipeline: sharp.Sharp, format: UploadFormat): sharp.Sharp {
  if (format === 'jpeg') return pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' });
  if (format === 'webp') return pipeline.webp({ quality: 95 });
  return pipeline.png({ compressionLevel: 6 });
}

/** What the cheap checks learn from an image's bytes and header. */
export interface ImageFacts {
  format: UploadFormat;
  /** As displayed: the EXIF orientation applied (a portrait photo stored sideways reports its upright size). */
  width: number;
  height: number;
  contentType: string;
}

/**
 * The checks that need no decoding: signature, container end (truncation, appended data, APNG), then the
 * header's format, dimensions and page count, so a decompression bomb is refused without decoding a pixel.
 * Throws a 422 naming the problem.
 */
export async function checkImageHeader(bytes: Buffer, maxPixels: number = LIMITS.uploadMaxPixels): Promise<ImageFacts> {
  if (bytes.length === 0) throw reject(UPLOAD_MESSAGES.empty);
  if (bytes.length > LIMITS.uploadMaxBytes) throw reject(UPLOAD_MESSAGES.tooLarge);
  const format = sniffFormat(bytes);
  if (!format) throw reject(UPLOAD_MESSAGES.wrongType);
  const facts = containerFacts(bytes, format);
  if (facts.trailingBytes === null) throw reject(UPLOAD_MESSAGES.damaged);
  if (facts.trailingBytes > 0) throw reject(UPLOAD_MESSAGES.extraData);
  if (facts.animated) throw reject(UPLOAD_MESSAGES.animated);

  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw reject(UPLOAD_MESSAGES.damaged);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw reject(UPLOAD_MESSAGES.damaged);
  if ((meta.pages ?? 1) > 1) throw reject(UPLOAD_MESSAGES.animated);
  if (meta.width * meta.height > maxPixels) throw reject(UPLOAD_MESSAGES.tooManyPixels);
  // Orientations 5-8 turn the image a quarter: its upright width is the stored height.
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    format,
    width: turned ? meta.height : meta.width,
    height: turned ? meta.width : meta.height,
    contentType: `image/${format}`,
  };
}

/**
 * Checks an uploaded image and returns a clean copy, or throws a 422 naming the problem. The cheap checks
 * (checkImageHeader) come first; only then is the image decoded (catching damage inside the data) and
 * re-encoded.
 */
export async function inspectUpload(bytes: Buffer, maxPixels: number = LIMITS.uploadMaxPixels): Promise<CleanImage> {
  const { format } = await checkImageHeader(bytes, maxPixels);
  try {
    const { data, info } = await encode(
      sharp(bytes, { failOn: 'warning', limitInputPixels: maxPixels, animated: false }).autoOrient(),
      format,
    ).toBuffer({ resolveWithObject: true });
    return { format, width: info.width, height: info.height, bytes: data, contentType: `image/${format}` };
  } catch {
    throw reject(UPLOAD_MESSAGES.damaged);
  }
}

/** The 422 for an upscale whose output would pass LIMITS.upscaleOutputMaxPixels (64 MP). */
export function checkUpscaleOutput(width: number, height: number, factor: number): void {
  const max = LIMITS.upscaleOutputMaxPixels;
  if (width * factor * (height * factor) <= max) return;
  const side = Math.floor(Math.sqrt(max / (factor * factor)));
  throw validationError({
    image: [
      `The upscaled image would be too large: at most ${max / (1024 * 1024)} megapixels, so at ${factor}x the image can be at most ${side}x${side} pixels.`,
    ],
  });
}
