import { type DigitalSourceType, type RawImage, encodeRaw } from '@imagestudio/runtime/imaging';

export type { RawImage };

export type OutputFormat = 'png' | 'webp' | 'avif' | 'jpeg';

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
};

/**
 * Encodes raw pixels with provenance XMP and nothing else from the input, through the encoder the worker shares
 * with the API (`encodeRaw` in @imagestudio/runtime/imaging): truecolor PNG, lossless WebP, JPEG quality 92.
 */
export function encodeImage(
  image: RawImage,
  format: OutputFormat,
  source: DigitalSourceType,
  tool: string,
): Promise<Buffer> {
  return encodeRaw(image, { format, source, tool });
}
