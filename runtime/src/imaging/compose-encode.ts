import sharp from 'sharp';
import type { ProductPhotoLayout } from '@imagestudio/contracts';
import { ENCODE_CONTENT_TYPES, type EncodeFormat, type RawImage, encodeRaw } from './encode';
import type { DigitalSourceType } from './provenance';

/** The composed canvas to a file: the format `auto` picks, the alpha channel dropped where nothing shows through. */

/** The provenance XMP written into the result: how it was made, and by which tool (the caller names it). */
export interface ComposeProvenance {
  source: DigitalSourceType;
  tool: string;
}

export interface EncodedComposition {
  data: Buffer;
  format: EncodeFormat;
  contentType: string;
}

/** An alpha value that lets nothing through. */
const OPAQUE_ALPHA = 255;

/** The format `auto` gives a picture with (png) and without (jpeg) transparency. */
const AUTO_FORMAT = { transparent: 'png', opaque: 'jpeg' } as const;

/** A mask (one channel): `auto` gives a PNG, like any picture with transparency. */
export async function encodeMask(
  mask: RawImage,
  layout: ProductPhotoLayout,
  provenance: ComposeProvenance,
): Promise<EncodedComposition> {
  const format = layout.outputFormat === 'auto' ? AUTO_FORMAT.transparent : layout.outputFormat;
  const data = await encodeRaw(mask, { format, ...provenance });
  return { data, format, contentType: ENCODE_CONTENT_TYPES[format] };
}

/**
 * The RGBA canvas, encoded. Over an opaque background nothing is transparent; otherwise the alpha is looked at
 * only when it decides something (auto's format, or dropping the alpha channel of a result on a background).
 */
export async function encodeCanvas(
  canvas: RawImage,
  options: { layout: ProductPhotoLayout; hasBackground: boolean; backgroundOpaque: boolean },
  provenance: ComposeProvenance,
): Promise<EncodedComposition> {
  const { layout, hasBackground } = options;
  const { width, height } = canvas;
  const transparent =
    !options.backgroundOpaque &&
    (layout.outputFormat === 'auto' || hasBackground ? await anyTransparency(canvas.data, width, height) : true);
  const format: EncodeFormat =
    layout.outputFormat === 'auto' ? AUTO_FORMAT[transparent ? 'transparent' : 'opaque'] : layout.outputFormat;
  // An opaque result on a background loses its alpha channel (smaller files); a cut-out keeps it, as today.
  const image: RawImage =
    hasBackground && !transparent
      ? {
          data: await sharp(canvas.data, { raw: { width, height, channels: 4 } })
            .removeAlpha()
            .raw()
            .toBuffer(),
          width,
          height,
          channels: 3,
          icc: canvas.icc,
        }
      : canvas;
  const data = await encodeRaw(image, { format, quality: layout.quality, ...provenance });
  return { data, format, contentType: ENCODE_CONTENT_TYPES[format] };
}

async function anyTransparency(rgba: Buffer, width: number, height: number): Promise<boolean> {
  const { channels } = await sharp(rgba, { raw: { width, height, channels: 4 } }).stats();
  return channels[3]!.min < OPAQUE_ALPHA;
}
