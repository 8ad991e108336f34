import sharp from 'sharp';
import type { Box } from '@imagestudio/contracts';

/** A rectangle in pixels (the layout's, from contracts). */
export type { Box };

/** A matte: one byte of alpha per pixel, row by row. */
export interface Matte {
  data: Buffer;
  width: number;
  height: number;
}

/** Alpha (0-255) at or above which a matte pixel belongs to the subject: about 10%, so faint haze does not count. */
export const SUBJECT_ALPHA_THRESHOLD = 26;
/** A separate part of the matte lighter than this share of the largest part is a speck, not subject. */
export const SPECK_FRACTION = 0.01;
/** The grid the parts are found on: about this many cells on the long side. */
const GRID = 512;

/**
 * The subject's box in a matte: the pixels with alpha >= SUBJECT_ALPHA_THRESHOLD, leaving out specks (separate
 * parts lighter than SPECK_FRACTION of the largest). Null when nothing reaches the threshold. The parts are found
 * on a grid of at most GRID cells a side (a loop over that small mask); the box itself is measured at full size
 * by libvips (threshold and trim on sharp's thread pool), exact to the pixel.
 */
export async function findSubjectBox(matte: Matte): Promise<Box | null> {
  const { width, height } = matte;
  const raw = { raw: { width, height, channels: 1 as const } };
  const binary = await sharp(matte.data, raw).threshold(SUBJECT_ALPHA_THRESHOLD).extractChannel(0).raw().toBuffer();
  const f = Math.max(1, Math.ceil(Math.max(width, height) / GRID));
  const gw = Math.ceil(width / f);
  const gh = Math.ceil(height / f);
  // A cell is set when any pixel of its block is: a box average over the padded blocks, then > 0.
  const grid =
    f === 1
      ? binary
      : await sharp(binary, raw)
          .extend({ right: gw * f - width, bottom: gh * f - height, background: { r: 0, g: 0, b: 0 } })
          .resize(gw, gh, { kernel: 'linear' })
          .extractChannel(0)
          .raw()
          .toBuffer();
  const parts = labelParts(grid, gw, gh);
  if (parts.weights.length === 0) return null;
  const heaviest = Math.max(...parts.weights);
  const kept = parts.weights.map((w) => w >= heaviest * SPECK_FRACTION);
  let subject = binary;
  if (kept.some((k) => !k)) {
    // Only pixels in (or one cell around) a kept part count: a mask of those cells at full size, ANDed in.
    const keep = Buffer.alloc(gw * gh);
    for (let y = 0; y < gh; y++)
      for (let x = 0; x < gw; x++) {
        let on = false;
        for (let dy = -1; dy <= 1 && !on; dy++)
          for (let dx = -1; dx <= 1 && !on; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            if (yy < 0 || xx < 0 || yy >= gh || xx >= gw) continue;
            const label = parts.labels[yy * gw + xx]!;
            on = label > 0 && kept[label - 1]!;
          }
        keep[y * gw + x] = on ? 255 : 0;
      }
    const keepFull = await sharp(keep, { raw: { width: gw, height: gh, channels: 1 } })
      .resize(gw * f, gh * f, { kernel: 'nearest' })
      .extract({ left: 0, top: 0, width, height })
      .extractChannel(0)
      .raw()
      .toBuffer();
    subject = await sharp(binary, raw).boolean(keepFull, 'and', raw).extractChannel(0).raw().toBuffer();
  }
  // lineArt: no median filter before the search, so a one-pixel tip of the subject counts.
  const { info } = await sharp(subject, raw)
    .trim({ background: '#000000', threshold: 1, lineArt: true })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    left: -(info.trimOffsetLeft ?? 0),
    top: -(info.trimOffsetTop ?? 0),
    width: info.width,
    height: info.height,
  };
}

/**
 * 8-connected parts of the set cells of a small grid: each cell's part (1-based, 0 for none) and each part's
 * weight (the sum of its cells' values).
 */
export function labelParts(grid: Uint8Array, w: number, h: number): { labels: Int32Array; weights: number[] } {
  const labels = new Int32Array(w * h);
  const weights: number[] = [];
  // Each cell is pushed once at most: a typed stack of the grid's size never overflows.
  const stack = new Int32Array(w * h);
  for (let start = 0; start < grid.length; start++) {
    if (grid[start] === 0 || labels[start] !== 0) continue;
    const label = weights.length + 1;
    let weight = 0;
    let top = 0;
    labels[start] = label;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top]!;
      weight += grid[i]!;
      const x = i % w;
      const y0 = i - x === 0 ? 0 : -1;
      const y1 = i + w < grid.length ? 1 : 0;
      const x0 = x === 0 ? 0 : -1;
      const x1 = x === w - 1 ? 0 : 1;
      for (let dy = y0; dy <= y1; dy++)
        for (let dx = x0; dx <= x1; dx++) {
          const j = i + dy * w + dx;
          if (grid[j] !== 0 && labels[j] === 0) {
            labels[j] = label;
            stack[top++] = j;
          }
        }
    }
    weights.push(weight);
  }
  return { labels, weights };
}
