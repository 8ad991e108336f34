import sharp from 'sharp';
import { LIMITS, UPLOAD_CONTENT_TYPES, type UploadFormat } from '@imagestudio/contracts';
import { keepsRgbProfile } from '@imagestudio/runtime/imaging';
import { validationError } from '../../lib/errors';
import { containerFacts, sniffFormat } from './image-bytes';

export const UPLOAD_MESSAGES = {
  empty: 'The image file is empty.',
  wrongType: 'Only JPEG, PNG, WebP, AVIF, TIFF and HEIC images are accepted.',
  extraData: 'The file contains data after the image. Please upload a plain JPEG, PNG, WebP, AVIF, TIFF or HEIC image.',
  damaged: 'The image file is damaged or incomplete.',
  animated: 'Animated images are not supported.',
  multiPage: 'Files that hold several images are not supported. Please upload one image per file.',
  tooManyPixels: `The image is too large: at most ${LIMITS.uploadMaxPixels / 1_000_000} megapixels.`,
  tooLarge: `The image is too large: at most ${LIMITS.uploadMaxBytes / (1024 * 1024)} MB.`,
} as const;

export interface CleanImage {
  /** The stored copy's format: the upload's, except AVIF and TIFF, which are stored as PNG. */
  format: UploadFormat;
  width: number;
  height: number;
  /**
   * Re-encoded pixels and their RGB ICC profile only: EXIF (GPS, camera), XMP and comments are gone; orientation
   * is applied. A HEIC is the exception: the API cannot decode HEVC, so its checked bytes are stored as sent and
   * the worker decodes them (results never carry an input's metadata but its profile).
   */
  bytes: Buffer;
  contentType: string;
}

const reject = (message: string) => validationError({ image: [message] });

/**
 * Re-encoding keeps the format the user sent, but AVIF and TIFF become PNG (lossless, and every browser can show
 * the stored input); quality is high because these are inputs to further work.
 */
function encode(pipeline: sharp.Sharp, format: UploadFormat): { pipeline: sharp.Sharp; format: UploadFormat } {
  if (format === 'jpeg') return { pipeline: pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' }), format };
  if (format === 'webp') return { pipeline: pipeline.webp({ quality: 95 }), format };
  return { pipeline: pipeline.png({ compressionLevel: 6 }), format: 'png' };
}

/** The name sharp's metadata gives each upload format's container. */
const SHARP_FORMAT: Record<UploadFormat, string> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  tiff: 'tiff',
  avif: 'heif',
  heic: 'heif',
};

/** A HEIF container's format from its coding: the brands can name generic HEIF, the coding cannot lie. */
function heifFormat(compression: string | undefined): UploadFormat | null {
  if (compression === 'av1') return 'avif';
  if (compression === 'hevc') return 'heic';
  return null;
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
  return (await readHeader(bytes, maxPixels)).facts;
}

/** checkImageHeader's work, with the header's ICC profile and colour space for inspectUpload. */
async function readHeader(bytes: Buffer, maxPixels: number): Promise<{ facts: ImageFacts; meta: sharp.Metadata }> {
  if (bytes.length === 0) throw reject(UPLOAD_MESSAGES.empty);
  if (bytes.length > LIMITS.uploadMaxBytes) throw reject(UPLOAD_MESSAGES.tooLarge);
  const sniffed = sniffFormat(bytes);
  if (!sniffed) throw reject(UPLOAD_MESSAGES.wrongType);
  const facts = containerFacts(bytes, sniffed);
  if (facts.trailingBytes === null) throw reject(UPLOAD_MESSAGES.damaged);
  if (facts.trailingBytes > 0) throw reject(UPLOAD_MESSAGES.extraData);
  if (facts.animated) throw reject(UPLOAD_MESSAGES.animated);

  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw reject(UPLOAD_MESSAGES.damaged);
  }
  if (meta.format !== SHARP_FORMAT[sniffed] || !meta.width || !meta.height) throw reject(UPLOAD_MESSAGES.damaged);
  // A HEIF container holding neither AV1 nor HEVC (JPEG-coded or uncompressed items) is not taken.
  const format = meta.format === 'heif' ? heifFormat(meta.compression) : sniffed;
  if (!format) throw reject(UPLOAD_MESSAGES.wrongType);
  if ((meta.pages ?? 1) > 1)
    throw reject(format === 'webp' || format === 'png' ? UPLOAD_MESSAGES.animated : UPLOAD_MESSAGES.multiPage);
  if (meta.width * meta.height > maxPixels) throw reject(UPLOAD_MESSAGES.tooManyPixels);
  // Orientations 5-8 turn the image a quarter: its upright width is the stored height. (HEIF's own rotation
  // is already in the size libheif reports, and sharp gives no orientation for it.)
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    facts: {
      format,
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      contentType: UPLOAD_CONTENT_TYPES[format],
    },
    meta,
  };
}

/**
 * Checks an uploaded image and returns a clean copy, or throws a 422 naming the problem. The cheap checks
 * (checkImageHeader) come first; only then is the image decoded (catching damage inside the data) and
 * re-encoded.
 */
export async function inspectUpload(bytes: Buffer, maxPixels: number = LIMITS.uploadMaxPixels): Promise<CleanImage> {
  const { facts, meta } = await readHeader(bytes, maxPixels);
  if (facts.format === 'heic') return { ...facts, bytes };
  try {
    let pipeline = sharp(bytes, { failOn: 'warning', limitInputPixels: maxPixels, animated: false }).autoOrient();
    // An RGB profile (Display P3, Adobe RGB) stays with unconverted pixels; sharp would convert to sRGB.
    if (keepsRgbProfile(meta.icc, meta.space)) pipeline = pipeline.keepIccProfile();
    const encoded = encode(pipeline, facts.format);
    const { data, info } = await encoded.pipeline.toBuffer({ resolveWithObject: true });
    const format = encoded.format;
    return { format, width: info.width, height: info.height, bytes: data, contentType: UPLOAD_CONTENT_TYPES[format] };
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
