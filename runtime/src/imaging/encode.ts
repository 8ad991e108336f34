import sharp from 'sharp';
import { insertPngIcc } from './icc';
import { insertPngXmp } from './png-xmp';
import { type DigitalSourceType, provenanceXmp } from './provenance';

export type EncodeFormat = 'png' | 'webp' | 'avif' | 'jpeg';

export const ENCODE_CONTENT_TYPES: Record<EncodeFormat, string> = {
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
};

/** The quality of the lossy encodings when none is asked for (WebP is lossless then). */
export const DEFAULT_QUALITY = { jpeg: 92, avif: 70 } as const;

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  /**
   * The RGB ICC profile the pixels are in (the input's, kept by the decoder); the result is tagged with it and
   * its pixels are not converted. Absent or null: sRGB, untagged. Ignored for one-channel images (mattes).
   */
  icc?: Buffer | null;
}

export interface EncodeOptions {
  format: EncodeFormat;
  /** 1-100 for JPEG, AVIF and WebP (lossy WebP only when given); null or absent: the format's default. */
  quality?: number | null;
  source: DigitalSourceType;
  /** Written as the XMP CreatorTool. */
  tool: string;
}

/**
 * zlib level 2 with adaptive (per-row) filtering: on a 1024^2 cut-out it encodes in about the time level 6
 * without filtering took, and the file is a third smaller (worker/README.md "PNG encoding").
 */
const PNG_COMPRESSION_LEVEL = 2;

/**
 * Encodes raw pixels with provenance XMP (in PNG as an uncompressed iTXt chunk), the input's ICC profile when
 * the pixels carry one, and nothing else from the input.
 * PNG is truecolor (never palette-quantised: palette PNGs band colours); WebP is lossless unless a quality is
 * given; JPEG (no alpha: flattened on white) is 4:4:4 at quality 92 by default; AVIF is 4:4:4 at 70.
 */
export async function encodeRaw(image: RawImage, options: EncodeOptions): Promise<Buffer> {
  const { format, quality } = options;
  const xmp = provenanceXmp(options.source, options.tool);
  const icc = image.channels === 1 ? null : (image.icc ?? null);
  let pipeline = await rawPipeline(image, icc, format);
  // PNG gets its XMP as an uncompressed iTXt chunk afterwards (png-xmp.ts); sharp writes it compressed.
  if (format !== 'png') pipeline = pipeline.withXmp(xmp);
  // sharp widens one-channel raw input to sRGB unless told it is greyscale.
  if (image.channels === 1) pipeline = pipeline.toColourspace('b-w');
  if (format === 'png')
    pipeline = pipeline.png({ compressionLevel: PNG_COMPRESSION_LEVEL, palette: false, adaptiveFiltering: true });
  else if (format === 'webp')
    pipeline =
      quality == null
        ? pipeline.webp({ lossless: true, effort: 2 })
        : pipeline.webp({ quality, alphaQuality: 100, effort: 4, smartSubsample: true });
  else if (format === 'avif')
    pipeline = pipeline.avif({ quality: quality ?? DEFAULT_QUALITY.avif, effort: 2, chromaSubsampling: '4:4:4' });
  else
    pipeline = pipeline
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: quality ?? DEFAULT_QUALITY.jpeg, mozjpeg: false, chromaSubsampling: '4:4:4' });
  const encoded = await pipeline.toBuffer();
  if (format !== 'png') return encoded;
  return insertPngXmp(icc ? insertPngIcc(encoded, icc) : encoded, xmp);
}

/**
 * The encoder's input. sharp cannot tag raw pixels with a profile without converting them to it, so for the
 * formats whose writer must embed the profile itself (all but PNG, which gets its iCCP chunk afterwards), the
 * pixels pass through an uncompressed PNG carrying the profile, read back with keepIccProfile: libvips then
 * writes the profile as it is and leaves the pixels alone.
 */
async function rawPipeline(image: RawImage, icc: Buffer | null, format: EncodeFormat): Promise<sharp.Sharp> {
  const raw = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (!icc || format === 'png') return raw;
  const tagged = insertPngIcc(await raw.png({ compressionLevel: 0, adaptiveFiltering: false }).toBuffer(), icc);
  return sharp(tagged).keepIccProfile();
}
