import sharp, { type OverlayOptions } from 'sharp';
import { PRODUCT_PHOTO_MESSAGES, planLayout, type LayoutPlan, type ProductPhotoLayout } from '@imagestudio/contracts';
import { backgroundLayer } from './background';
import { ComposeInputError, MAX_INPUT_PIXELS } from './compose-input';
import { ENCODE_CONTENT_TYPES, type EncodeFormat, type RawImage, encodeRaw } from './encode';
import { keepsRgbProfile } from './icc';
import type { DigitalSourceType } from './provenance';
import { type Box, type Matte, SUBJECT_ALPHA_THRESHOLD, findSubjectBox } from './subject-box';

/**
 * The product-photo composition engine: a cut-out and its matte in, a finished picture out (crop to
 * subject, margins, canvas, position, background colour, image or blur, drop or contact shadow, format). Shared by
 * the worker (after the model) and the API (the free re-composition of a stored cut-out), so every step runs as a
 * sharp (libvips) operation on its thread pool but the subject's box (one JavaScript pass over the matte, shared
 * with the browser editor: ~5 ms at 2000 px); other JavaScript loops only walk small masks (the subject's base row
 * band). Geometry is layout.ts, the subject's box subject-box.ts, the backgrounds background.ts.
 */

export interface ComposeInput {
  /**
   * The decontaminated image at full size, raw sRGB (3 or 4 channels) or encoded: every pixel's colour kept (the
   * background's too, for background blur). An alpha channel of its own is multiplied with the matte.
   */
  foreground: RawImage | Buffer;
  /** The matte at the foreground's size: raw one-channel bytes, or an encoded greyscale image. */
  matte: Matte | Buffer;
  /** The encoded background image, for a layout whose background is `image`. */
  backgroundImage?: Buffer;
  layout: ProductPhotoLayout;
  /**
   * True when the image has no alpha of its own (e.g. decodeImage's `hasAlpha` was false): spares a pass over a
   * 4-channel foreground to find out.
   */
  opaque?: boolean;
  /** The provenance XMP written into the result; background removal's by default. */
  provenance?: { source: DigitalSourceType; tool: string };
}

export interface ComposeResult {
  data: Buffer;
  width: number;
  height: number;
  format: EncodeFormat;
  contentType: string;
  /** The subject's box in result pixels (null when the matte holds no subject). */
  subjectBox: Box | null;
}

export { ComposeInputError };

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

const DEFAULT_PROVENANCE = {
  source: 'compositeWithTrainedAlgorithmicMedia' as const,
  tool: 'Image Studio background removal',
};

/** Composes and encodes a product photo; with the default layout, exactly today's transparent PNG cut-out. */
export async function composeProductPhoto(input: ComposeInput): Promise<ComposeResult> {
  const { layout } = input;
  const fg = await toRaw(input.foreground);
  const whole = await toMatte(input.matte);
  if (whole.width !== fg.width || whole.height !== fg.height)
    throw new ComposeInputError(PRODUCT_PHOTO_MESSAGES.matteSize);
  const matte = layout.roi ? await clearOutside(whole, layout.roi) : whole;
  if (layout.background.kind === 'image' && !input.backgroundImage)
    throw new ComposeInputError(PRODUCT_PHOTO_MESSAGES.backgroundImageMissing);
  const plan = planLayout(fg, findSubjectBox(matte), layout);
  const provenance = input.provenance ?? DEFAULT_PROVENANCE;
  const { width, height } = plan.canvas;

  if (layout.maskOnly) {
    const placed = await place({ ...matte, channels: 1 }, plan, { r: 0, g: 0, b: 0 });
    const format = layout.outputFormat === 'auto' ? 'png' : layout.outputFormat;
    const data = await encodeRaw({ data: placed, width, height, channels: 1 }, { format, ...provenance });
    return { data, width, height, format, contentType: ENCODE_CONTENT_TYPES[format], subjectBox: plan.subjectBox };
  }

  const hasBackground = layout.background.kind !== 'none';
  const plain = !hasBackground && layout.shadow.kind === 'none';
  const cutout = await cutoutRgba(fg, matte, { opaque: input.opaque === true, zeroHidden: plain });
  let canvas: Buffer;
  let backgroundOpaque = false;
  if (plain) {
    // Placed on transparency without blending: the default layout gives today's pixels exactly.
    canvas = await place(cutout, plan, TRANSPARENT);
  } else {
    const subject = await resized(cutout, plan);
    const overlays: OverlayOptions[] = [];
    const shadow = await shadowLayer(subject, plan, layout);
    if (shadow) overlays.push(shadow);
    overlays.push(rawOverlay(subject, plan.target.width, plan.target.height, plan.target.left, plan.target.top));
    const base = await backgroundLayer(fg, matte, input.backgroundImage, plan, layout);
    backgroundOpaque = base.opaque;
    canvas = await sharp(base.data, { raw: { width, height, channels: 4 } })
      .composite(overlays)
      .raw()
      .toBuffer();
  }

  // Over an opaque background nothing is transparent; otherwise the alpha is looked at only when it decides
  // something (auto's format, or dropping the alpha channel of a result on a background).
  const transparent =
    !backgroundOpaque &&
    (layout.outputFormat === 'auto' || hasBackground ? await anyTransparency(canvas, width, height) : true);
  const format: EncodeFormat = layout.outputFormat === 'auto' ? (transparent ? 'png' : 'jpeg') : layout.outputFormat;
  // An opaque result on a background loses its alpha channel (smaller files); a cut-out keeps it, as today.
  const image: RawImage =
    hasBackground && !transparent
      ? {
          data: await sharp(canvas, { raw: { width, height, channels: 4 } })
            .removeAlpha()
            .raw()
            .toBuffer(),
          width,
          height,
          channels: 3,
          icc: fg.icc,
        }
      : { data: canvas, width, height, channels: 4, icc: fg.icc };
  const data = await encodeRaw(image, { format, quality: layout.quality, ...provenance });
  return { data, width, height, format, contentType: ENCODE_CONTENT_TYPES[format], subjectBox: plan.subjectBox };
}

async function anyTransparency(rgba: Buffer, width: number, height: number): Promise<boolean> {
  const { channels } = await sharp(rgba, { raw: { width, height, channels: 4 } }).stats();
  return channels[3]!.min < 255;
}

async function toRaw(image: RawImage | Buffer): Promise<RawImage> {
  if (!Buffer.isBuffer(image)) {
    if (image.channels === 1) throw new ComposeInputError('The image must be in colour.');
    return image;
  }
  try {
    // A stored foreground tagged with an RGB profile (a P3 photo's cut-out) keeps its pixels and its profile.
    let pipeline = sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 });
    const meta = await pipeline.metadata();
    const icc = keepsRgbProfile(meta.icc, meta.space) ? meta.icc : null;
    if (icc) pipeline = pipeline.keepIccProfile();
    const { data, info } = await pipeline
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3, icc };
  } catch {
    throw new ComposeInputError('The stored image could not be read.');
  }
}

/** The matte with everything outside the region of interest cleared (the `roi` option). */
async function clearOutside(matte: Matte, roi: NonNullable<ProductPhotoLayout['roi']>): Promise<Matte> {
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

async function toMatte(matte: Matte | Buffer): Promise<Matte> {
  if (!Buffer.isBuffer(matte)) return matte;
  try {
    const { data, info } = await sharp(matte, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 })
      .extractChannel(0)
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw new ComposeInputError(PRODUCT_PHOTO_MESSAGES.matteUnreadable);
  }
}

/**
 * The cut-out at full size: RGBA with alpha = matte x the image's own alpha. With `zeroHidden` the colour is
 * zeroed where that is 0, as the worker's compositeAlpha writes it (the colour of a fully transparent pixel shows
 * nowhere, and zeros make PNGs smaller): then, for an opaque image, the bytes equal compositeAlpha's. Composited
 * results need no zeroing (resizing and blending are premultiplied), which spares two passes.
 */
async function cutoutRgba(
  fg: RawImage,
  matte: Matte,
  options: { opaque: boolean; zeroHidden: boolean },
): Promise<RawImage> {
  const { width, height } = fg;
  const one = { raw: { width, height, channels: 1 as const } };
  const image = () => sharp(fg.data, { raw: { width, height, channels: fg.channels } });
  let alpha = matte.data;
  if (fg.channels === 4 && !options.opaque) {
    const own = await image().extractChannel(3).raw().toBuffer();
    const { channels } = await sharp(own, one).stats();
    // Multiplied by libvips in floating point: within 1 of round(matte x alpha / 255).
    if (channels[0]!.min < 255)
      alpha = await sharp(matte.data, one)
        .composite([{ input: own, raw: one.raw, blend: 'multiply' }])
        .extractChannel(0)
        .raw()
        .toBuffer();
  }
  const rgb = fg.channels === 4 ? await image().removeAlpha().raw().toBuffer() : fg.data;
  let pipeline = sharp(rgb, { raw: { width, height, channels: 3 } });
  if (options.zeroHidden)
    pipeline = pipeline.boolean(await sharp(alpha, one).threshold(1).extractChannel(0).raw().toBuffer(), 'and', one);
  const data = await pipeline.joinChannel(alpha, one).raw().toBuffer();
  return { data, width, height, channels: 4 };
}

/** The plan's source rectangle of `image`, resized to the target's size (alpha premultiplied by sharp). */
async function resized(image: RawImage, plan: LayoutPlan): Promise<Buffer> {
  const { source, target } = plan;
  const whole = source.left === 0 && source.top === 0 && source.width === image.width && source.height === image.height;
  const same = source.width === target.width && source.height === target.height;
  if (whole && same) return image.data;
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (!whole) pipeline = pipeline.extract(source);
  if (!same) pipeline = pipeline.resize(target.width, target.height, { fit: 'fill', kernel: 'lanczos3' });
  if (image.channels === 1) pipeline = pipeline.extractChannel(0);
  return pipeline.raw().toBuffer();
}

/** `image` resized and placed on the canvas, the rest filled with `fill` (no blending anywhere). */
async function place(image: RawImage, plan: LayoutPlan, fill: sharp.Color): Promise<Buffer> {
  const content = await resized(image, plan);
  const { canvas, target } = plan;
  const right = canvas.width - target.left - target.width;
  const bottom = canvas.height - target.top - target.height;
  if (target.left === 0 && target.top === 0 && right === 0 && bottom === 0) return content;
  let pipeline = sharp(content, {
    raw: { width: target.width, height: target.height, channels: image.channels },
  }).extend({ left: target.left, top: target.top, right, bottom, background: fill });
  if (image.channels === 1) pipeline = pipeline.extractChannel(0);
  return pipeline.raw().toBuffer();
}

function rawOverlay(data: Buffer, width: number, height: number, left: number, top: number): OverlayOptions {
  return { input: data, raw: { width, height, channels: 4 }, left, top };
}

// ---- shadows ----

/**
 * The shadow, made from the matte, as an overlay clipped to the canvas (composited over the background and under
 * the subject): `drop` is the subject's silhouette offset down and right and blurred (2.5% of the subject's long
 * side); `contact` a flattened soft ellipse under the subject's base (its bottom rows), darkest in the middle.
 */
async function shadowLayer(
  subject: Buffer,
  plan: LayoutPlan,
  layout: ProductPhotoLayout,
): Promise<OverlayOptions | null> {
  const shadow = layout.shadow;
  if (shadow.kind === 'none' || shadow.opacity === 0) return null;
  const { target } = plan;
  const box = plan.subjectBox ?? target;
  const long = Math.max(box.width, box.height);
  let layer: { data: Buffer; width: number; height: number; left: number; top: number };
  if (shadow.kind === 'drop') {
    const sigma = Math.max(0.5, 0.025 * long);
    const pad = Math.ceil(3 * sigma);
    const w = target.width + 2 * pad;
    const h = target.height + 2 * pad;
    // Two steps: sharp applies one extractChannel, and at the end of a pipeline, whatever the order of the calls.
    const silhouette = await sharp(subject, { raw: { width: target.width, height: target.height, channels: 4 } })
      .extractChannel(3)
      .raw()
      .toBuffer();
    const alpha = await sharp(silhouette, { raw: { width: target.width, height: target.height, channels: 1 } })
      .extend({ left: pad, right: pad, top: pad, bottom: pad, background: { r: 0, g: 0, b: 0 } })
      .blur(sigma)
      .linear(shadow.opacity, 0)
      .extractChannel(0)
      .raw()
      .toBuffer();
    const data = await sharp({ create: { width: w, height: h, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .joinChannel(alpha, { raw: { width: w, height: h, channels: 1 } })
      .raw()
      .toBuffer();
    layer = {
      data,
      width: w,
      height: h,
      left: target.left - pad + Math.round(0.02 * long),
      top: target.top - pad + Math.round(0.035 * long),
    };
  } else {
    const base = baseExtent(subject, plan, box);
    const rx = Math.max(2, ((base.right - base.left) / 2) * 1.15);
    const ry = Math.max(1.5, rx * 0.12);
    const cx = (base.left + base.right) / 2;
    const cy = box.top + box.height - ry * 0.2;
    const w = Math.ceil(2 * rx) + 2;
    const h = Math.ceil(2 * ry) + 2;
    const o = shadow.opacity;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      '<defs><radialGradient id="s">' +
      `<stop offset="0" stop-color="#000" stop-opacity="${o}"/>` +
      `<stop offset="0.55" stop-color="#000" stop-opacity="${o * 0.55}"/>` +
      '<stop offset="1" stop-color="#000" stop-opacity="0"/>' +
      '</radialGradient></defs>' +
      `<ellipse cx="${w / 2}" cy="${h / 2}" rx="${rx}" ry="${ry}" fill="url(#s)"/></svg>`;
    const data = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    layer = { data, width: w, height: h, left: Math.round(cx - w / 2), top: Math.round(cy - h / 2) };
  }
  return clipOverlay(layer, plan.canvas);
}

/** The horizontal extent (canvas pixels) of the subject's bottom rows: where a contact shadow goes. */
function baseExtent(subject: Buffer, plan: LayoutPlan, box: Box): { left: number; right: number } {
  const { target } = plan;
  // The bottom 8% of the subject's box, read from the placed subject's alpha: a small band of rows.
  const bottom = Math.min(target.height, box.top + box.height - target.top);
  const rows = Math.max(1, Math.round(box.height * 0.08));
  let min = Infinity;
  let max = -Infinity;
  for (let y = Math.max(0, bottom - rows); y < bottom; y++)
    for (let x = 0; x < target.width; x++)
      if (subject[(y * target.width + x) * 4 + 3]! >= SUBJECT_ALPHA_THRESHOLD) {
        if (x < min) min = x;
        if (x > max) max = x;
      }
  if (min > max) return { left: box.left, right: box.left + box.width };
  return { left: target.left + min, right: target.left + max + 1 };
}

/** The part of an RGBA layer that falls on the canvas, as an overlay (null when none does). */
async function clipOverlay(
  layer: { data: Buffer; width: number; height: number; left: number; top: number },
  canvas: { width: number; height: number },
): Promise<OverlayOptions | null> {
  const x0 = Math.max(0, layer.left);
  const y0 = Math.max(0, layer.top);
  const x1 = Math.min(canvas.width, layer.left + layer.width);
  const y1 = Math.min(canvas.height, layer.top + layer.height);
  if (x1 <= x0 || y1 <= y0) return null;
  if (x0 === layer.left && y0 === layer.top && x1 - x0 === layer.width && y1 - y0 === layer.height)
    return rawOverlay(layer.data, layer.width, layer.height, x0, y0);
  const data = await sharp(layer.data, { raw: { width: layer.width, height: layer.height, channels: 4 } })
    .extract({ left: x0 - layer.left, top: y0 - layer.top, width: x1 - x0, height: y1 - y0 })
    .raw()
    .toBuffer();
  return rawOverlay(data, x1 - x0, y1 - y0, x0, y0);
}
