import sharp, { type OverlayOptions } from 'sharp';
import { cutEdgesOf, planLayout, type LayoutPlan, type ProductPhotoLayout } from '@imagestudio/contracts';
import { backgroundLayer } from './background';
import { clearOutside, foregroundPixels, mattePixels } from './compose-decode';
import { type ComposeProvenance, encodeCanvas, encodeMask } from './compose-encode';
import { ComposeInputError } from './compose-input';
import { MATTE_FILL, TRANSPARENT, cutoutRgba, place, rawOverlay, resized } from './compose-layout';
import { shadowLayer } from './compose-shadow';
import type { EncodeFormat, RawImage } from './encode';
import { type Box, type Matte, findSubjectBox } from './subject-box';

/**
 * The product-photo composition engine: a cut-out and its matte in, a finished picture out (crop to
 * subject, margins, canvas, position, background colour, image or blur, drop or contact shadow, format). Shared by
 * the worker (after the model) and the API (the free re-composition of a stored cut-out), so every step runs as a
 * sharp (libvips) operation on its thread pool but the subject's box (one JavaScript pass over the matte, shared
 * with the browser editor: ~5 ms at 2000 px); other JavaScript loops only walk small masks (the contact shadow's
 * alpha at most 384 px a side) and the matte's four edge rows (the frame's cut sides). Geometry and the frame rule
 * are contracts' planLayout, the subject's box and cut sides contracts' subject-box.ts; the steps are
 * compose-decode.ts (inputs to pixels), compose-layout.ts (the cut-out placed), background.ts, compose-shadow.ts
 * and compose-encode.ts.
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
  /** The provenance XMP written into the result: the caller says which of its tools made the picture. */
  provenance: ComposeProvenance;
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
export type { ComposeRefusal } from './compose-input';
export type { ComposeProvenance };

/** Composes and encodes a product photo; with the default layout, exactly today's transparent PNG cut-out. */
export async function composeProductPhoto(input: ComposeInput): Promise<ComposeResult> {
  const { layout, provenance } = input;
  const fg = await foregroundPixels(input.foreground);
  const whole = await mattePixels(input.matte);
  if (whole.width !== fg.width || whole.height !== fg.height) throw new ComposeInputError('matteSize');
  const matte = layout.roi ? await clearOutside(whole, layout.roi) : whole;
  if (layout.background.kind === 'image' && !input.backgroundImage)
    throw new ComposeInputError('backgroundImageMissing');
  const box = findSubjectBox(matte);
  // The frame's cuts are read on the full-size matte: its edges are the photo's.
  const plan = planLayout(fg, box, layout, cutEdgesOf(matte.data, matte.width, matte.height, box));
  const { width, height } = plan.canvas;
  const done = (encoded: { data: Buffer; format: EncodeFormat; contentType: string }): ComposeResult => ({
    ...encoded,
    width,
    height,
    subjectBox: plan.subjectBox,
  });

  if (layout.maskOnly) {
    const placed = await place({ ...matte, channels: 1 }, plan, MATTE_FILL);
    return done(await encodeMask({ data: placed, width, height, channels: 1 }, layout, provenance));
  }
  const hasBackground = layout.background.kind !== 'none';
  const { canvas, backgroundOpaque } = await paint(fg, matte, input, plan);
  const image: RawImage = { data: canvas, width, height, channels: 4, icc: fg.icc };
  return done(await encodeCanvas(image, { layout, hasBackground, backgroundOpaque }, provenance));
}

/** The RGBA canvas: the cut-out laid out over its shadow and background; whether that background is opaque. */
async function paint(
  fg: RawImage,
  matte: Matte,
  input: ComposeInput,
  plan: LayoutPlan,
): Promise<{ canvas: Buffer; backgroundOpaque: boolean }> {
  const { layout } = input;
  const plain = layout.background.kind === 'none' && layout.shadow.kind === 'none';
  const cutout = await cutoutRgba(fg, matte, { opaque: input.opaque === true, zeroHidden: plain });
  // Placed on transparency without blending: the default layout gives today's pixels exactly.
  if (plain) return { canvas: await place(cutout, plan, TRANSPARENT), backgroundOpaque: false };
  const { width, height } = plan.canvas;
  const { target } = plan;
  const subject = await resized(cutout, plan);
  const overlays: OverlayOptions[] = [];
  const shadow = await shadowLayer(subject, plan, layout);
  if (shadow) overlays.push(shadow);
  overlays.push(rawOverlay(subject, target.width, target.height, target.left, target.top));
  const base = await backgroundLayer(fg, matte, input.backgroundImage, plan, layout);
  const canvas = await sharp(base.data, { raw: { width, height, channels: 4 } })
    .composite(overlays)
    .raw()
    .toBuffer();
  return { canvas, backgroundOpaque: base.opaque };
}
