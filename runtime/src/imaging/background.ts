import sharp from 'sharp';
import { type LayoutPlan, type ProductPhotoLayout } from '@imagestudio/contracts';
import { ComposeInputError, MAX_INPUT_PIXELS } from './compose-input';
import type { RawImage } from './encode';
import { srgbToProfile } from './icc';
import type { Matte } from './subject-box';

/**
 * The canvas's background for the composition engine (compose.ts): a colour, an image, or the input's own
 * background blurred. Colours and images are asked for in sRGB and converted into the result's colour profile
 * (`fg.icc`, the input's, kept); the blurred background is made of the input's pixels, already in it.
 */

/** A background blur works on a copy shrunk so that its radius is at most this many pixels, then enlarged. */
const BLUR_WORKING_SIGMA = 8;
/**
 * How far (a Gaussian sigma, px at the input's size) the subject is grown before its pixels are left out of the
 * blurred background: a matte's outline can sit a pixel or two inside the subject's, where pixels mix both.
 */
const SUBJECT_GROWTH_SIGMA = 1;

/** The canvas-sized RGBA background, and whether it is opaque everywhere. */
export async function backgroundLayer(
  fg: RawImage,
  matte: Matte,
  image: Buffer | undefined,
  plan: LayoutPlan,
  layout: ProductPhotoLayout,
): Promise<{ data: Buffer; opaque: boolean }> {
  const { width, height } = plan.canvas;
  const bg = layout.background;
  if (bg.kind === 'none' || bg.kind === 'color') {
    const [r, g, b, a] = bg.kind === 'color' ? bg.rgba : [0, 0, 0, 0];
    const [cr, cg, cb] = await srgbToProfile(
      { data: Buffer.from([r, g, b]), width: 1, height: 1, channels: 3 },
      fg.icc,
    );
    const data = await sharp({
      create: { width, height, channels: 4, background: { r: cr!, g: cg!, b: cb!, alpha: a / 255 } },
    })
      .raw()
      .toBuffer();
    return { data, opaque: a === 255 };
  }
  if (bg.kind === 'image') {
    let data: Buffer;
    let hasAlpha: boolean;
    try {
      const decoder = () =>
        sharp(image!, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true, pages: 1 });
      hasAlpha = (await decoder().metadata()).hasAlpha === true;
      // Decoded into sRGB (from the image's own profile, if any), then into the result's.
      data = await decoder()
        .resize(width, height, { fit: 'cover', position: 'centre' })
        .toColourspace('srgb')
        .ensureAlpha()
        .raw({ depth: 'uchar' })
        .toBuffer();
    } catch {
      throw new ComposeInputError('backgroundImageUnreadable');
    }
    data = await srgbToProfile({ data, width, height, channels: 4 }, fg.icc);
    const opaque =
      !hasAlpha || (await sharp(data, { raw: { width, height, channels: 4 } }).stats()).channels[3]!.min === 255;
    return { data, opaque };
  }
  return { data: await blurredBackground(fg, matte, plan, bg.radius), opaque: true };
}

/**
 * The input's own background, laid out like the subject (so the blur sits exactly behind it), mirrored past the
 * input's edges, and blurred by `radius` px per 1000 px of the canvas's long side. The subject's own pixels never
 * take part, mirrored or not: each pixel is weighted by whether it is background (the matte is 0 there, a little
 * past the subject's outline), and the weight goes with the colour through the layout and the mirror. The
 * holes this leaves (the subject's area, its mirror images where it touches the input's edge) are filled from the
 * background around them (fillHoles), and only then is the whole blurred. The work runs on a copy shrunk to a
 * blur radius of BLUR_WORKING_SIGMA px, then enlarged: smooth anyway, and quick at any radius.
 */
export async function blurredBackground(
  fg: RawImage,
  matte: Matte,
  plan: Pick<LayoutPlan, 'canvas' | 'source' | 'target'>,
  radius: number,
): Promise<Buffer> {
  const { canvas, source, target } = plan;
  const sigma = (radius * Math.max(canvas.width, canvas.height)) / 1000;
  const shrink = Math.max(1, sigma / BLUR_WORKING_SIGMA);
  const small = {
    width: Math.max(1, Math.round(canvas.width / shrink)),
    height: Math.max(1, Math.round(canvas.height / shrink)),
  };
  // Input pixel x lands at target.left + (x - source.left) * scale on the canvas, / shrink on the small copy.
  const sx = target.width / source.width / shrink;
  const sy = target.height / source.height / shrink;
  const scaledW = Math.max(1, Math.round(fg.width * sx));
  const scaledH = Math.max(1, Math.round(fg.height * sy));
  const left = Math.round((target.left - source.left * (target.width / source.width)) / shrink);
  const top = Math.round((target.top - source.top * (target.height / source.height)) / shrink);
  const x0 = Math.min(scaledW - 1, Math.max(0, -left));
  const y0 = Math.min(scaledH - 1, Math.max(0, -top));
  const visibleW = Math.max(1, Math.min(scaledW - x0, small.width - Math.max(0, left)));
  const visibleH = Math.max(1, Math.min(scaledH - y0, small.height - Math.max(0, top)));
  const one = { raw: { width: fg.width, height: fg.height, channels: 1 as const } };
  const rgb =
    fg.channels === 4
      ? await sharp(fg.data, { raw: { ...one.raw, channels: 4 } })
          .removeAlpha()
          .raw()
          .toBuffer()
      : fg.data;
  // The weight, 255 on background and 0 on the subject grown a little: every pixel the matte touches at all,
  // blurred and thresholded again (sharp thresholds before it blurs, and negates last).
  const subject = await sharp(matte.data, one)
    .threshold(1)
    .blur(SUBJECT_GROWTH_SIGMA)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const weight = await sharp(subject, one).threshold(1).negate().extractChannel(0).raw().toBuffer();
  // Colour with the weight as its alpha, joined first and resized in a pipeline of its own (sharp would resize a
  // channel joined in the same pipeline wrongly). Resizing premultiplies by the alpha, so a scaled pixel is the
  // average of the background pixels under it only; a linear kernel has no negative lobes, which, divided by a
  // small weight, would make up colours. The mirror copies colour and weight together.
  const weighted = await sharp(rgb, { raw: { ...one.raw, channels: 3 } })
    .joinChannel(weight, one)
    .raw()
    .toBuffer();
  const laidOut = await sharp(weighted, { raw: { ...one.raw, channels: 4 } })
    .resize(scaledW, scaledH, { fit: 'fill', kernel: 'linear' })
    .extract({ left: x0, top: y0, width: visibleW, height: visibleH })
    .extend({
      left: Math.max(0, left),
      top: Math.max(0, top),
      right: Math.max(0, small.width - Math.max(0, left) - visibleW),
      bottom: Math.max(0, small.height - Math.max(0, top) - visibleH),
      extendWith: 'mirror',
    })
    .raw()
    .toBuffer();
  const filled = await fillHoles({ data: laidOut, ...small });
  return sharp(filled, { raw: { ...small, channels: 3 } })
    .blur(Math.max(0.3, sigma / shrink))
    .resize(canvas.width, canvas.height, { fit: 'fill', kernel: 'cubic' })
    .ensureAlpha(1)
    .raw()
    .toBuffer();
}

/**
 * An RGBA image whose alpha says where its colour is known, made opaque RGB by filling the rest from the known
 * pixels around (push-pull): halved again and again (premultiplied, so each coarser pixel is the average of the
 * known pixels under it, its alpha made four times stronger so that a few known pixels count), then, from the
 * coarsest up, each level laid over the enlarged fill of the one above. Every pixel that comes out is an average
 * of known pixels only. An image with nothing known at all (a subject covering the whole photo) comes out white.
 */
async function fillHoles(image: { data: Buffer; width: number; height: number }): Promise<Buffer> {
  const raw = (level: { width: number; height: number }, channels: 3 | 4) => ({
    raw: { width: level.width, height: level.height, channels },
  });
  const levels = [image];
  for (let level = image; level.width > 1 || level.height > 1;) {
    const width = Math.ceil(level.width / 2);
    const height = Math.ceil(level.height / 2);
    const data = await sharp(level.data, raw(level, 4))
      .resize(width, height, { fit: 'fill', kernel: 'linear' })
      .linear([1, 1, 1, 4], [0, 0, 0, 0])
      .raw()
      .toBuffer();
    level = { data, width, height };
    levels.push(level);
  }
  const coarsest = levels[levels.length - 1]!;
  let fill = Buffer.from(coarsest.data[3]! > 0 ? coarsest.data.subarray(0, 3) : [255, 255, 255]);
  let size = { width: 1, height: 1 };
  for (let i = levels.length - 1; i >= 0; i -= 1) {
    const level = levels[i]!;
    const under = await sharp(fill, raw(size, 3))
      .resize(level.width, level.height, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer();
    fill = await sharp(under, raw(level, 3))
      .composite([{ input: level.data, ...raw(level, 4) }])
      .removeAlpha()
      .raw()
      .toBuffer();
    size = level;
  }
  return fill;
}
