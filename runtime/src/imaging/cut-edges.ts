import sharp from 'sharp';
import type { LayoutPlan } from '@imagestudio/contracts';
import type { Layer } from './shadow-layer';
import type { Box } from './subject-box';

/**
 * How a shadow fades at a side the frame cut, in shares of the shadow's reach from the cut line: the gradient ends
 * (full shadow) at END; its first CLEAR of that (reach / 2) stays clear.
 */
const CUT_FADE = { end: 1.5, clear: 0.333 };

/**
 * The layer with nothing under or beside the sides of the subject's box (canvas pixels) that the frame cut: for
 * each such side, the shadow is cleared from the cut line outwards and for `reach` / 2 px inwards, then fades in
 * over `reach` px (how far the shadow spreads), so no slab lies along the cut line or against it. Gradients
 * rendered by libvips (an SVG), kept by dest-in.
 */
export async function withoutCutEdges(layer: Layer, plan: LayoutPlan, box: Box, reach: number): Promise<Layer> {
  const lines = cutLines(layer, plan, box, Math.round(CUT_FADE.end * reach));
  if (lines.length === 0) return layer;
  const masks = lines.map((line) => ({ input: fadeSvg(layer, line), blend: 'dest-in' as const }));
  const data = await sharp(layer.data, { raw: { width: layer.width, height: layer.height, channels: 4 } })
    .composite(masks)
    .raw()
    .toBuffer();
  return { ...layer, data };
}

type Line = [x1: number, y1: number, x2: number, y2: number];

/** Each cut side: a gradient line from the cut line (layer pixels) `end` px into the subject. */
function cutLines(layer: Layer, plan: LayoutPlan, box: Box, end: number): Line[] {
  const cut = plan.cutEdges;
  const lines: Line[] = [];
  const x0 = box.left - layer.left;
  const y0 = box.top - layer.top;
  const x1 = x0 + box.width;
  const y1 = y0 + box.height;
  if (cut.top) lines.push([0, y0, 0, y0 + end]);
  if (cut.bottom) lines.push([0, y1, 0, y1 - end]);
  if (cut.left) lines.push([x0, 0, x0 + end, 0]);
  if (cut.right) lines.push([x1, 0, x1 - end, 0]);
  return lines;
}

/** An SVG the layer's size whose alpha rises along the line: clear to its CLEAR share, opaque at its end. */
function fadeSvg(layer: Layer, [ax, ay, bx, by]: Line): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layer.width}" height="${layer.height}">` +
      `<defs><linearGradient id="f" gradientUnits="userSpaceOnUse" x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}">` +
      `<stop offset="${CUT_FADE.clear}" stop-color="#000" stop-opacity="0"/>` +
      '<stop offset="1" stop-color="#000" stop-opacity="1"/>' +
      '</linearGradient></defs>' +
      `<rect width="${layer.width}" height="${layer.height}" fill="url(#f)"/></svg>`,
  );
}
