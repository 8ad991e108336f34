import sharp from 'sharp';
import type { LayoutPlan } from '@imagestudio/contracts';
import { groundWeights } from './ground-line';
import { BLUR_REACH_SIGMAS, type Layer, MIN_SHADOW_SIGMA, shadowWithAlpha } from './shadow-layer';
import { type Box, SUBJECT_ALPHA_THRESHOLD } from './subject-box';

/**
 * The contact shadow: a point of the subject's underside casts it when it is at most REACH x the subject's height
 * above the ground line, darker the lower it is; the ground may tilt up to TILT (dy/dx, about 19 degrees: a
 * motorcycle seen three-quarters has its rear wheel higher in the picture); blurred by CONTACT_SIGMA x the
 * subject's long side; worked out at most WORK_SIDE px on the long side, then enlarged.
 */
const REACH = 0.12;
const TILT = 0.35;
export const CONTACT_SIGMA = 0.012;
const WORK_SIDE = 384;

/**
 * The contact shadow: soft blobs where the subject meets the ground, not one ellipse under its box, so a
 * motorcycle gets one under each wheel (and its stand), a chair one under each leg and a shoe one along its sole,
 * and nothing shows in the gaps between them or under a part that hangs in the air.
 *
 * Worked on a copy of the placed subject's alpha at most WORK_SIDE px on the long side (a blurred shadow needs
 * no more; it keeps the JavaScript below small whatever the canvas): each column's lowest subject pixel within the
 * subject's box (alpha >= the subject threshold) is its underside; groundWeights says how much each casts; each
 * casts a short stroke just below it, widened by sigma to each side (so that after the blur a single leg's tip is
 * still a blob of several 8-bit levels), blurred by libvips, scaled so the darkest point has the asked opacity, and
 * enlarged to the canvas.
 */
export async function contactLayer(
  subject: Buffer,
  plan: LayoutPlan,
  box: Box,
  opacity: number,
): Promise<Layer | null> {
  const { target } = plan;
  const k = Math.max(1, Math.max(target.width, target.height) / WORK_SIDE);
  const work = await undersides(subject, plan, box, k);
  const weights = groundWeights(work.underside, Math.max(1, REACH * (work.y1 - work.y0)), TILT);
  const sigma = Math.max(MIN_SHADOW_SIGMA, (CONTACT_SIGMA * Math.max(box.width, box.height)) / k);
  const seeds = strokes(work, weights, sigma);
  if (seeds === null) return null;
  const { w, h, top, pad } = seeds;
  const one = { raw: { width: w, height: h, channels: 1 as const } };
  const blurred = await sharp(seeds.data, one).blur(sigma).extractChannel(0).raw().toBuffer();
  // Scaled so the darkest point is the asked opacity (a blurred stroke's peak depends on its length).
  const max = (await sharp(blurred, one).stats()).channels[0]!.max;
  if (max === 0) return null;
  const W = Math.max(1, Math.round(w * k));
  const H = Math.max(1, Math.round(h * k));
  let shade = sharp(blurred, one).linear((255 * opacity) / max, 0);
  if (k > 1) shade = shade.resize(W, H, { fit: 'fill' });
  const data = await shadowWithAlpha(await shade.extractChannel(0).raw().toBuffer(), W, H);
  return { data, width: W, height: H, left: target.left - Math.round(pad * k), top: target.top + Math.round(top * k) };
}

/** The placed subject's undersides in working pixels (scale 1 / k), and its box's rows there. */
interface Undersides {
  /** Per working column, its lowest subject row within the box; -1 for none. */
  underside: Int32Array;
  width: number;
  y0: number;
  y1: number;
}

async function undersides(subject: Buffer, plan: LayoutPlan, box: Box, k: number): Promise<Undersides> {
  const { target } = plan;
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
  return { underside, width: ww, y0, y1 };
}

/**
 * The unblurred shadow (working pixels): under each casting underside a stroke `sigma` px deep at its weight, each
 * column taking its strongest caster within `sigma` px, with room for the blur around; null when nothing casts.
 */
function strokes(
  work: Undersides,
  weights: Float64Array,
  sigma: number,
): { data: Buffer; w: number; h: number; top: number; pad: number } | null {
  const { underside, width: ww, y0 } = work;
  const r = Math.round(sigma);
  const stroke = Math.max(1, Math.round(sigma));
  const pad = Math.ceil(BLUR_REACH_SIGMAS * sigma) + r;
  let lowest = -1;
  for (let x = 0; x < ww; x++) if (weights[x]! > 0) lowest = Math.max(lowest, underside[x]!);
  if (lowest < 0) return null;
  const top = y0 - pad;
  const w = ww + 2 * pad;
  const h = lowest - y0 + stroke + 2 * pad;
  const data = Buffer.alloc(w * h);
  for (let x = -r; x < ww + r; x++) {
    let best = -1;
    for (let n = Math.max(0, x - r); n <= Math.min(ww - 1, x + r); n++)
      if (weights[n]! > 0 && (best < 0 || weights[n]! > weights[best]!)) best = n;
    if (best < 0) continue;
    const v = Math.round(255 * weights[best]!);
    for (let dy = 0; dy < stroke; dy++) data[(underside[best]! + dy - top) * w + x + pad] = v;
  }
  return { data, w, h, top, pad };
}
