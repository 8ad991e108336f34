import sharp, { type OverlayOptions } from 'sharp';
import type { LayoutPlan, ProductPhotoLayout } from '@imagestudio/contracts';
import { clipOverlay } from './compose-layout';
import { CONTACT_SIGMA, contactLayer } from './contact-shadow';
import { withoutCutEdges } from './cut-edges';
import { BLUR_REACH_SIGMAS, type Layer, MIN_SHADOW_SIGMA, shadowWithAlpha } from './shadow-layer';

/** The drop shadow's offset, down and right, and its blur (a Gaussian sigma), as shares of the subject's long side. */
const DROP = { dx: 0.02, dy: 0.035, sigma: 0.025 };
/** The silhouette's alpha around the subject, before the blur: no shadow. */
const NO_SHADOW = { r: 0, g: 0, b: 0 };

/**
 * The shadow, made from the matte, as an overlay clipped to the canvas (composited over the background and under
 * the subject): `drop` is the subject's silhouette offset down and right and blurred; `contact` lies where the
 * subject touches the ground (contact-shadow.ts). Neither is drawn under or beside a side the photo's frame cut
 * (cut-edges.ts): there the subject does not end, so nothing would cast it.
 */
export async function shadowLayer(
  subject: Buffer,
  plan: LayoutPlan,
  layout: ProductPhotoLayout,
): Promise<OverlayOptions | null> {
  const shadow = layout.shadow;
  if (shadow.kind === 'none' || shadow.opacity === 0) return null;
  const box = plan.subjectBox ?? plan.target;
  const long = Math.max(box.width, box.height);
  let layer: Layer | null;
  let reach: number;
  if (shadow.kind === 'drop') {
    ({ layer, reach } = await dropLayer(subject, plan, long, shadow.opacity));
  } else {
    // A subject cut at the bottom does not stand on anything in the picture: no contact shadow at all.
    if (plan.cutEdges.bottom) return null;
    layer = await contactLayer(subject, plan, box, shadow.opacity);
    reach = Math.ceil(BLUR_REACH_SIGMAS * Math.max(1, CONTACT_SIGMA * long));
  }
  if (layer === null) return null;
  return clipOverlay(await withoutCutEdges(layer, plan, box, reach), plan.canvas);
}

/**
 * The drop shadow: the placed subject's silhouette, blurred, at the asked opacity, offset down and right; and how
 * far (px) it reaches past the subject.
 */
async function dropLayer(
  subject: Buffer,
  plan: LayoutPlan,
  long: number,
  opacity: number,
): Promise<{ layer: Layer; reach: number }> {
  const { target } = plan;
  const sigma = Math.max(MIN_SHADOW_SIGMA, DROP.sigma * long);
  const pad = Math.ceil(BLUR_REACH_SIGMAS * sigma);
  const w = target.width + 2 * pad;
  const h = target.height + 2 * pad;
  // Two steps: sharp applies one extractChannel, and at the end of a pipeline, whatever the order of the calls.
  const silhouette = await sharp(subject, { raw: { width: target.width, height: target.height, channels: 4 } })
    .extractChannel(3)
    .raw()
    .toBuffer();
  const alpha = await sharp(silhouette, { raw: { width: target.width, height: target.height, channels: 1 } })
    .extend({ left: pad, right: pad, top: pad, bottom: pad, background: NO_SHADOW })
    .blur(sigma)
    .linear(opacity, 0)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const layer = {
    data: await shadowWithAlpha(alpha, w, h),
    width: w,
    height: h,
    left: target.left - pad + Math.round(DROP.dx * long),
    top: target.top - pad + Math.round(DROP.dy * long),
  };
  return { layer, reach: Math.round(Math.max(DROP.dx, DROP.dy) * long) + pad };
}
