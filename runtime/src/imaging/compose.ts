import sharp, { type OverlayOptions } from 'sharp';
import {
  PRODUCT_PHOTO_MESSAGES,
  cutEdgesOf,
  planLayout,
  type LayoutPlan,
  type ProductPhotoLayout,
} from '@imagestudio/contracts';
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
 * with the browser editor: ~5 ms at 2000 px); other JavaScript loops only walk small masks (the contact shadow's
 * alpha at most 384 px a side) and the matte's four edge rows (the frame's cut sides). Geometry and the frame rule
 * are contracts' planLayout, the subject's box and cut sides contracts' subject-box.ts, the backgrounds
 * background.ts.
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
  const box = findSubjectBox(matte);
  // The frame's cuts are read on the full-size matte: its edges are the photo's.
  const plan = planLayout(fg, box, layout, cutEdgesOf(matte.data, matte.width, matte.height, box));
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

/** An RGBA layer placed on the canvas at left, top. */
interface Layer {
  data: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
}

/** The drop shadow's offset, down and right, and its blur (a Gaussian sigma), as shares of the subject's long side. */
const DROP = { dx: 0.02, dy: 0.035, sigma: 0.025 };
/**
 * The contact shadow (contactLayer): a point of the subject's underside casts it when it is at most `reach` x the
 * subject's height above the ground line, darker the lower it is; the ground may tilt up to `tilt` (dy/dx, about
 * 19 degrees: a motorcycle seen three-quarters has its rear wheel higher in the picture); blurred by `sigma` x the
 * subject's long side; worked out at most `work` px on the long side, then enlarged.
 */
const CONTACT = { reach: 0.12, tilt: 0.35, sigma: 0.012, work: 384 };

/**
 * The shadow, made from the matte, as an overlay clipped to the canvas (composited over the background and under
 * the subject): `drop` is the subject's silhouette offset down and right and blurred; `contact` lies where the
 * subject touches the ground (contactLayer). Neither is drawn under or beside a side the photo's frame cut
 * (withoutCutEdges): there the subject does not end, so nothing would cast it.
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
  let layer: Layer | null;
  let reach: number;
  if (shadow.kind === 'drop') {
    const sigma = Math.max(0.5, DROP.sigma * long);
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
    layer = {
      data: await blackWithAlpha(alpha, w, h),
      width: w,
      height: h,
      left: target.left - pad + Math.round(DROP.dx * long),
      top: target.top - pad + Math.round(DROP.dy * long),
    };
    reach = Math.round(Math.max(DROP.dx, DROP.dy) * long) + pad;
  } else {
    // A subject cut at the bottom does not stand on anything in the picture: no contact shadow at all.
    if (plan.cutEdges.bottom) return null;
    layer = await contactLayer(subject, plan, box, shadow.opacity);
    reach = Math.ceil(3 * Math.max(1, CONTACT.sigma * long));
  }
  if (layer === null) return null;
  return clipOverlay(await withoutCutEdges(layer, plan, box, reach), plan.canvas);
}

/**
 * The contact shadow: soft blobs where the subject meets the ground, not one ellipse under its box, so a
 * motorcycle gets one under each wheel (and its stand), a chair one under each leg and a shoe one along its sole,
 * and nothing shows in the gaps between them or under a part that hangs in the air.
 *
 * Worked on a copy of the placed subject's alpha at most CONTACT.work px on the long side (a blurred shadow needs
 * no more; it keeps the JavaScript below small whatever the canvas): each column's lowest subject pixel within the
 * subject's box (alpha >= the subject threshold) is its underside; groundWeights says how much each casts; each
 * casts a short stroke just below it, widened by sigma to each side (so that after the blur a single leg's tip is
 * still a blob of several 8-bit levels), blurred by libvips, scaled so the darkest point has the asked opacity, and
 * enlarged to the canvas.
 */
async function contactLayer(subject: Buffer, plan: LayoutPlan, box: Box, opacity: number): Promise<Layer | null> {
  const { target } = plan;
  const k = Math.max(1, Math.max(target.width, target.height) / CONTACT.work);
  const ww = Math.max(1, Math.round(target.width / k));
  const wh = Math.max(1, Math.round(target.height / k));
  let pipeline = sharp(subject, { raw: { width: target.width, height: target.height, channels: 4 } });
  if (k > 1) pipeline = pipeline.resize(ww, wh, { fit: 'fill' });
  const alpha = await pipeline.extractChannel(3).raw().toBuffer();
  // The subject's box in working pixels: a far speck the box leaves out casts nothing.
  const clampTo = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const x0 = clampTo(Math.floor((box.left - target.left) / k), ww);
  const x1 = clampTo(Math.ceil((box.left + box.width - target.left) / k), ww);
  const y0 = clampTo(Math.floor((box.top - target.top) / k), wh);
  const y1 = clampTo(Math.ceil((box.top + box.height - target.top) / k), wh);
  const underside = new Int32Array(ww).fill(-1);
  for (let x = x0; x < x1; x++)
    for (let y = y1 - 1; y >= y0; y--)
      if (alpha[y * ww + x]! >= SUBJECT_ALPHA_THRESHOLD) {
        underside[x] = y;
        break;
      }
  const weights = groundWeights(underside, Math.max(1, CONTACT.reach * (y1 - y0)), CONTACT.tilt);

  const sigma = Math.max(0.5, (CONTACT.sigma * Math.max(box.width, box.height)) / k);
  const r = Math.round(sigma);
  const stroke = Math.max(1, Math.round(sigma));
  const pad = Math.ceil(3 * sigma) + r;
  let lowest = -1;
  for (let x = 0; x < ww; x++) if (weights[x]! > 0) lowest = Math.max(lowest, underside[x]!);
  if (lowest < 0) return null;
  const top = y0 - pad;
  const w = ww + 2 * pad;
  const h = lowest - y0 + stroke + 2 * pad;
  const seeds = Buffer.alloc(w * h);
  for (let x = -r; x < ww + r; x++) {
    let best = -1;
    for (let n = Math.max(0, x - r); n <= Math.min(ww - 1, x + r); n++)
      if (weights[n]! > 0 && (best < 0 || weights[n]! > weights[best]!)) best = n;
    if (best < 0) continue;
    const v = Math.round(255 * weights[best]!);
    for (let dy = 0; dy < stroke; dy++) seeds[(underside[best]! + dy - top) * w + x + pad] = v;
  }
  const one = { raw: { width: w, height: h, channels: 1 as const } };
  const blurred = await sharp(seeds, one).blur(sigma).extractChannel(0).raw().toBuffer();
  // Scaled so the darkest point is the asked opacity (a blurred stroke's peak depends on its length).
  const max = (await sharp(blurred, one).stats()).channels[0]!.max;
  if (max === 0) return null;
  const W = Math.max(1, Math.round(w * k));
  const H = Math.max(1, Math.round(h * k));
  let shade = sharp(blurred, one).linear((255 * opacity) / max, 0);
  if (k > 1) shade = shade.resize(W, H, { fit: 'fill' });
  const data = await blackWithAlpha(await shade.extractChannel(0).raw().toBuffer(), W, H);
  return { data, width: W, height: H, left: target.left - Math.round(pad * k), top: target.top + Math.round(top * k) };
}

/**
 * How much each column's underside (its lowest subject row, -1 for none; y grows downwards) casts a contact
 * shadow: (1 - h / reach)^2, by its height h above the ground line, 0 from `reach` up.
 *
 * The ground line is the subject's lowest outline seen from below (the lower convex hull of the undersides), kept
 * where it tilts at most `tilt`: a motorcycle's wheels and stand, a chair's legs, a sole all lie on it, even when
 * the photo's ground is not level, while a wheel's flank curving up, an engine between the wheels or a fender
 * hanging in the air lie above it. Past the level part the line goes on straight; with no part level enough (a
 * point at the bottom), it is level through the lowest point.
 */
function groundWeights(underside: Int32Array, reach: number, tilt: number): Float64Array {
  const n = underside.length;
  // Monotone chain: a point stays on the hull when it is below the line joining its neighbours on it.
  const hull: number[] = [];
  for (let x = 0; x < n; x++) {
    const y = underside[x]!;
    if (y < 0) continue;
    while (hull.length >= 2) {
      const a = hull[hull.length - 2]!;
      const b = hull[hull.length - 1]!;
      const ya = underside[a]!;
      if ((underside[b]! - ya) * (x - a) > (y - ya) * (b - a)) break;
      hull.pop();
    }
    hull.push(x);
  }
  const weights = new Float64Array(n);
  if (hull.length === 0) return weights;
  const slope = (i: number) => (underside[hull[i + 1]!]! - underside[hull[i]!]!) / (hull[i + 1]! - hull[i]!);
  // The hull's slopes fall from left to right, so its level edges are one run, first..last.
  let first = -1;
  let last = -1;
  for (let i = 0; i + 1 < hull.length; i++)
    if (Math.abs(slope(i)) <= tilt) {
      if (first < 0) first = i;
      last = i;
    }
  let ground: (x: number) => number;
  if (first < 0) {
    let lowest = 0;
    for (const x of hull) lowest = Math.max(lowest, underside[x]!);
    ground = () => lowest;
  } else {
    const line = (i: number, x: number) => underside[hull[i]!]! + slope(i) * (x - hull[i]!);
    ground = (x) => {
      if (x <= hull[first]!) return line(first, x);
      if (x >= hull[last + 1]!) return line(last, x);
      let i = first;
      while (hull[i + 1]! < x) i++;
      return line(i, x);
    };
  }
  for (let x = 0; x < n; x++) {
    const y = underside[x]!;
    if (y < 0) continue;
    const h = Math.max(0, ground(x) - y);
    weights[x] = h >= reach ? 0 : (1 - h / reach) ** 2;
  }
  return weights;
}

/** A black RGBA layer with this alpha. */
function blackWithAlpha(alpha: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .raw()
    .toBuffer();
}

/**
 * The layer with nothing under or beside the sides of the subject's box (canvas pixels) that the frame cut: for
 * each such side, the shadow is cleared from the cut line outwards and for `reach` / 2 px inwards, then fades in
 * over `reach` px (how far the shadow spreads), so no slab lies along the cut line or against it. Gradients
 * rendered by libvips (an SVG), kept by dest-in.
 */
async function withoutCutEdges(layer: Layer, plan: LayoutPlan, box: Box, reach: number): Promise<Layer> {
  const cut = plan.cutEdges;
  // Each cut side: a gradient from the cut line (layer pixels) into the subject.
  const lines: [x1: number, y1: number, x2: number, y2: number][] = [];
  const x0 = box.left - layer.left;
  const y0 = box.top - layer.top;
  const x1 = x0 + box.width;
  const y1 = y0 + box.height;
  const end = Math.round(1.5 * reach);
  if (cut.top) lines.push([0, y0, 0, y0 + end]);
  if (cut.bottom) lines.push([0, y1, 0, y1 - end]);
  if (cut.left) lines.push([x0, 0, x0 + end, 0]);
  if (cut.right) lines.push([x1, 0, x1 - end, 0]);
  if (lines.length === 0) return layer;
  const masks = lines.map(([ax, ay, bx, by]) => ({
    input: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${layer.width}" height="${layer.height}">` +
        `<defs><linearGradient id="f" gradientUnits="userSpaceOnUse" x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}">` +
        '<stop offset="0.333" stop-color="#000" stop-opacity="0"/>' +
        '<stop offset="1" stop-color="#000" stop-opacity="1"/>' +
        '</linearGradient></defs>' +
        `<rect width="${layer.width}" height="${layer.height}" fill="url(#f)"/></svg>`,
    ),
    blend: 'dest-in' as const,
  }));
  const data = await sharp(layer.data, { raw: { width: layer.width, height: layer.height, channels: 4 } })
    .composite(masks)
    .raw()
    .toBuffer();
  return { ...layer, data };
}

/** The part of an RGBA layer that falls on the canvas, as an overlay (null when none does). */
async function clipOverlay(layer: Layer, canvas: { width: number; height: number }): Promise<OverlayOptions | null> {
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
