import type { Box } from './product-photo-layout';

/**
 * The subject's box in a matte, the one rule every picture is cropped and laid out by: the worker's and the API's
 * composition engine and the browser editor's live preview all call `subjectBoxOf`, so the preview's crop is the
 * download's. Pure arithmetic over the matte's bytes (no image library), so it runs the same in Node and the
 * browser.
 *
 * The rule: every pixel with alpha >= SUBJECT_ALPHA_THRESHOLD lies inside the box, except specks, which are both
 * tiny (a separate part smaller than SUBJECT_SPECK_SHARE of the largest part) and far (no part that is not tiny
 * within SUBJECT_SPECK_REACH of the image's long side). A part joined to the subject, however thin (a tyre, a mirror, a
 * strap), is never dropped, and neither is a part of real size anywhere in the picture.
 */

/** Alpha (0-255) at or above which a matte pixel belongs to the subject: about 10%, so faint haze does not count. */
export const SUBJECT_ALPHA_THRESHOLD = 26;
/** A separate part smaller than this share of the largest part is tiny (one condition of a speck). */
export const SUBJECT_SPECK_SHARE = 0.01;
/** A tiny part further than this share of the image's long side from every larger part is far (the other one). */
export const SUBJECT_SPECK_REACH = 0.02;
/** The least distance, in pixels, that counts as far on a small image. */
const SPECK_REACH_MIN_PX = 4;
/** The parts are found on a grid of about this many cells on the long side (a cell: f x f pixels). */
const GRID = 256;

/**
 * The subject's box in `alpha` (`width` x `height` pixels, `channels` bytes a pixel, the matte's alpha in the
 * first: 1 for a bare matte, 4 for a canvas's RGBA of a greyscale matte). Null when no pixel reaches the
 * threshold.
 *
 * One pass over the pixels marks a grid of f x f cells (f = 1 up to GRID px) holding a subject pixel, with the
 * exact box of those pixels; the parts are the 8-connected groups of marked cells, a part's size the number of its
 * cells. A cell is marked when ANY of its pixels is subject, so two touching pixels are always in the same or
 * neighbouring cells: a part joined to the subject by a line one pixel wide stays joined on the grid. Parts the
 * grid merges (nearer than a cell) count as one, and a thin part covers more cells than its pixels' share: both
 * only ever keep more. The box is the union of the kept parts' exact pixel boxes.
 */
export function subjectBoxOf(
  alpha: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels = 1,
): Box | null {
  if (alpha.length < width * height * channels) throw new Error('the matte is smaller than its size says');
  const f = Math.max(1, Math.ceil(Math.max(width, height) / GRID));
  const gw = Math.ceil(width / f);
  const gh = Math.ceil(height / f);
  const cells = gw * gh;
  const set = new Uint8Array(cells);
  // Each set cell's subject pixels' box.
  const minX = new Int32Array(cells).fill(width);
  const maxX = new Int32Array(cells).fill(-1);
  const minY = new Int32Array(cells).fill(height);
  const maxY = new Int32Array(cells).fill(-1);
  const t = SUBJECT_ALPHA_THRESHOLD;
  // A bare matte is mostly background: zero bytes are skipped four at a time (where the bytes are aligned for a
  // 32-bit view). Inside the subject, a cell's row is read from both ends only up to its first and last subject
  // pixel, so a solid subject costs two reads a cell row.
  const words =
    channels === 1 && alpha.byteOffset % 4 === 0
      ? new Uint32Array(alpha.buffer, alpha.byteOffset, alpha.length >> 2)
      : null;
  for (let y = 0; y < height; y++) {
    const row = ((y / f) | 0) * gw;
    const base = y * width;
    const rowEnd = base + width;
    let i = base;
    while (i < rowEnd) {
      if (words !== null && (i & 3) === 0 && i + 4 <= rowEnd && words[i >> 2] === 0) {
        i += 4;
        continue;
      }
      if (alpha[i * channels]! < t) {
        i++;
        continue;
      }
      // A subject pixel: its cell, and the cell's last subject pixel on this row (there is one: this).
      const x = i - base;
      const cx = (x / f) | 0;
      const cellEnd = Math.min(rowEnd, base + (cx + 1) * f);
      let last = cellEnd - 1;
      while (alpha[last * channels]! < t) last--;
      const cell = row + cx;
      if (set[cell] === 0) minY[cell] = y;
      set[cell] = 1;
      maxY[cell] = y;
      if (x < minX[cell]!) minX[cell] = x;
      if (last - base > maxX[cell]!) maxX[cell] = last - base;
      i = cellEnd;
    }
  }

  const { labels, weights } = labelGridParts(set, gw, gh);
  const parts = weights.length;
  if (parts === 0) return null;
  // Each part's exact pixel box and its box in cells.
  const box = { x0: new Int32Array(parts).fill(width), y0: new Int32Array(parts).fill(height) };
  const box1 = { x1: new Int32Array(parts).fill(-1), y1: new Int32Array(parts).fill(-1) };
  const cellBox = {
    x0: new Int32Array(parts).fill(gw),
    y0: new Int32Array(parts).fill(gh),
    x1: new Int32Array(parts).fill(-1),
    y1: new Int32Array(parts).fill(-1),
  };
  for (let gy = 0, cell = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++, cell++) {
      const p = labels[cell]! - 1;
      if (p < 0) continue;
      if (minX[cell]! < box.x0[p]!) box.x0[p] = minX[cell]!;
      if (minY[cell]! < box.y0[p]!) box.y0[p] = minY[cell]!;
      if (maxX[cell]! > box1.x1[p]!) box1.x1[p] = maxX[cell]!;
      if (maxY[cell]! > box1.y1[p]!) box1.y1[p] = maxY[cell]!;
      if (gx < cellBox.x0[p]!) cellBox.x0[p] = gx;
      if (gy < cellBox.y0[p]!) cellBox.y0[p] = gy;
      if (gx > cellBox.x1[p]!) cellBox.x1[p] = gx;
      if (gy > cellBox.y1[p]!) cellBox.y1[p] = gy;
    }

  let largest = 0;
  for (const w of weights) largest = Math.max(largest, w);
  const tiny = weights.map((w) => w < largest * SUBJECT_SPECK_SHARE);
  const keep = tiny.map((isTiny) => !isTiny);
  if (tiny.some(Boolean)) {
    // Where the parts of real size are: a summed-area table of their cells, so "is any within reach" is 4 reads.
    const sw = gw + 1;
    const sum = new Int32Array(sw * (gh + 1));
    for (let gy = 0; gy < gh; gy++)
      for (let gx = 0; gx < gw; gx++) {
        const label = labels[gy * gw + gx]!;
        const on = label > 0 && !tiny[label - 1] ? 1 : 0;
        sum[(gy + 1) * sw + gx + 1] = on + sum[gy * sw + gx + 1]! + sum[(gy + 1) * sw + gx]! - sum[gy * sw + gx]!;
      }
    const reachPx = Math.max(SPECK_REACH_MIN_PX, Math.round(SUBJECT_SPECK_REACH * Math.max(width, height)));
    // A pixel within reachPx of another lies at most this many cells from its cell: never too few, so a part
    // near the subject is never taken for a far one.
    const reach = Math.ceil(reachPx / f) + 1;
    for (let p = 0; p < parts; p++) {
      if (!tiny[p]) continue;
      const x0 = Math.max(0, cellBox.x0[p]! - reach);
      const y0 = Math.max(0, cellBox.y0[p]! - reach);
      const x1 = Math.min(gw, cellBox.x1[p]! + reach + 1);
      const y1 = Math.min(gh, cellBox.y1[p]! + reach + 1);
      keep[p] = sum[y1 * sw + x1]! - sum[y0 * sw + x1]! - sum[y1 * sw + x0]! + sum[y0 * sw + x0]! > 0;
    }
  }

  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let p = 0; p < parts; p++) {
    if (!keep[p]) continue;
    left = Math.min(left, box.x0[p]!);
    top = Math.min(top, box.y0[p]!);
    right = Math.max(right, box1.x1[p]!);
    bottom = Math.max(bottom, box1.y1[p]!);
  }
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * 8-connected parts of the non-zero cells of a grid: each cell's part (1-based, 0 for none) and each part's
 * weight (the sum of its cells' values).
 */
export function labelGridParts(
  grid: ArrayLike<number>,
  w: number,
  h: number,
): { labels: Int32Array; weights: number[] } {
  const n = w * h;
  const labels = new Int32Array(n);
  const weights: number[] = [];
  // Each cell is pushed once at most: a typed stack of the grid's size never overflows.
  const stack = new Int32Array(n);
  for (let start = 0; start < n; start++) {
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
      const y0 = i < w ? 0 : -1;
      const y1 = i + w < n ? 1 : 0;
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

/**
 * The sides of the subject that the photo's frame cuts: a person cut at the waist by the bottom edge, a tyre
 * clipped by it, a rocket's base. The layout keeps such a side on the canvas edge (a straight cut line floating in
 * the middle of a canvas looks wrong), and no shadow is drawn under or beside it.
 */
export interface CutEdges {
  top: boolean;
  right: boolean;
  bottom: boolean;
  left: boolean;
}

export const NO_CUT_EDGES: CutEdges = Object.freeze({ top: false, right: false, bottom: false, left: false });

/**
 * A side is cut when the matte's pixels on that edge of the photo (within the subject's box) cover at least this
 * share of the box's side: a waist, a clipped tyre's flat; not a hair or a corner that grazes the frame.
 */
const CUT_EDGE_SHARE = 0.05;
/** ...and at least this many pixels, so a few touching pixels on a small subject are no cut either. */
const CUT_EDGE_MIN_PX = 4;
/**
 * A pixel on the edge counts towards a cut from this alpha (half opaque): a cut goes through solid subject, while
 * the soft fringe of an outline that merely reaches the frame stays below it.
 */
const CUT_EDGE_ALPHA = 128;

/**
 * Which sides of the subject (`box`, from `subjectBoxOf` on the same matte) the photo's frame cuts. The matte
 * must be the photo's full size, as the edges are the photo's: the matte's outermost row or column on each side
 * is read within the box only (specks outside it never count), so this costs 2 x (width + height) reads.
 */
export function cutEdgesOf(
  alpha: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  box: Box | null,
  channels = 1,
): CutEdges {
  if (box === null) return NO_CUT_EDGES;
  if (alpha.length < width * height * channels) throw new Error('the matte is smaller than its size says');
  const right = box.left + box.width;
  const bottom = box.top + box.height;
  /** The pixels from `start` stepping by `step`, `count` of them, that are solid subject. */
  const solid = (start: number, step: number, count: number) => {
    let n = 0;
    for (let i = 0, p = start; i < count; i++, p += step) if (alpha[p * channels]! >= CUT_EDGE_ALPHA) n++;
    return n;
  };
  const enough = (n: number, side: number) => n >= Math.max(CUT_EDGE_MIN_PX, CUT_EDGE_SHARE * side);
  return {
    top: box.top === 0 && enough(solid(box.left, 1, box.width), box.width),
    bottom: bottom === height && enough(solid((height - 1) * width + box.left, 1, box.width), box.width),
    left: box.left === 0 && enough(solid(box.top * width, width, box.height), box.height),
    right: right === width && enough(solid(box.top * width + width - 1, width, box.height), box.height),
  };
}

/**
 * The side in pixels of the grid cells subjectBoxOf finds parts on (cells of f x f pixels, about GRID of them on
 * the long side), for other measures of a matte's parts that must see the parts it sees (cutoutConfidence).
 */
export function subjectGridCell(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / GRID));
}
