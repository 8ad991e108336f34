import { SUBJECT_SPECK_REACH, SUBJECT_SPECK_SHARE } from '@imagestudio/contracts';
import { type Components, labelComponents } from './components';

/**
 * Matte refinement after the matting model, before decontamination and compositing (worker/README.md "Matte
 * refinement"). ISNet leaves large parts of light or low-contrast subjects at 60-90% alpha (a cat's white chest),
 * which look ghostly on any new background, and keeps small blobs far from the subject. refineMatte:
 * - drops specks: separate parts (alpha >= 10%) smaller than SPECK_SHARE of the largest part and further than
 *   SPECK_REACH of the long side from every larger part;
 * - fills what confident foreground encloses: a region of alpha below 90% beyond the edge band of the outside
 *   background (the background that reaches the image border), next to confident subject, becomes opaque unless
 *   its colours are those of the background around it (a hole between a handle and a body, where the image shows
 *   the background, stays as the model left it; so does a hole the model was fairly sure of);
 * - leaves the edge band alone: the pixels within edgeBandWidth (1 px per 1024 px of the long side, at least 1)
 *   of the outside or of a hole kept open keep the model's soft alpha, so hair and fur stay soft.
 * Pure: returns a new matte and reads the image's colours only.
 */

/** Alpha at or above which a pixel is confident subject (90%). */
export const SOLID_ALPHA = 230;
/** Alpha below which a pixel is on the background side of the outline (50%). */
export const HALF_ALPHA = 128;
/** Alpha at or below which a pixel is confident background, and below which it is no part of a speck (10%). */
export const FAINT_ALPHA = 26;
/**
 * A part smaller than this share of the largest part is a speck when it is also far away: the subject box's rule
 * (contracts' subjectBoxOf), so what the box may leave out is what the refinement drops.
 */
export const SPECK_SHARE = SUBJECT_SPECK_SHARE;
/** How far (share of the image's long side) a speck must be from the subject to be dropped. */
export const SPECK_REACH = SUBJECT_SPECK_REACH;
/**
 * The colour evidence needed to overrule the model: an enclosed hole (alpha below 50%) the model was unsure of is
 * filled only when less than HOLE_EVIDENCE of it has the background's colours; a soft patch (50-90%) stays soft
 * only when more than PATCH_EVIDENCE of it has them. Set on the fixture photos (worker/README.md).
 */
export const HOLE_EVIDENCE = 0.25;
/** Mean alpha (30%) from which an enclosed hole counts as one the model was unsure of, and colour may fill it. */
export const UNSURE_HOLE_ALPHA = 77;
export const PATCH_EVIDENCE = 0.6;

export interface MatteImage {
  /** Interleaved 8-bit pixels, RGB first. */
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** The refined matte: a new buffer, the same size as `alpha` (one byte a pixel). */
export function refineMatte(alpha: Uint8Array, image: MatteImage): Buffer {
  const { width, height } = image;
  if (alpha.length !== width * height) throw new Error('matte and image sizes differ');
  const out = Buffer.from(alpha);
  dropSpecks(out, width, height);
  fillEnclosed(out, image);
  return out;
}

/** The edge band's width in pixels: the model's 1024^2 output is enlarged to the image, and its edges with it. */
export function edgeBandWidth(width: number, height: number): number {
  return Math.max(1, Math.round(Math.max(width, height) / 1024));
}

function dropSpecks(out: Buffer, width: number, height: number): void {
  const n = width * height;
  const mask = new Uint8Array(n);
  thresholdMask(out, FAINT_ALPHA, mask, 1);
  const parts = labelComponents(mask, width, height, 8);
  if (parts.count < 2) return;
  let largest = 0;
  for (let c = 0; c < parts.count; c++) largest = Math.max(largest, parts.area[c]!);
  const small = (c: number) => parts.area[c]! < largest * SPECK_SHARE;
  let anySmall = false;
  for (let c = 0; c < parts.count && !anySmall; c++) anySmall = small(c);
  if (!anySmall) return;
  // Where the kept parts are, on a coarse grid: a small part near any of them stays (a detached strand, a toe).
  const grid = new CoverageGrid(width, height);
  for (let r = 0; r < parts.runs; r++) {
    if (small(parts.runLabel[r]!)) continue;
    grid.addRun(parts.runRow[r]!, parts.runStart[r]!, parts.runEnd[r]!);
  }
  grid.integrate();
  const reach = Math.max(4, Math.round(SPECK_REACH * Math.max(width, height)));
  const far = new Uint8Array(parts.count);
  for (let c = 0; c < parts.count; c++) {
    if (!small(c)) continue;
    const near = grid.any(
      parts.minX[c]! - reach,
      parts.minY[c]! - reach,
      parts.maxX[c]! + reach,
      parts.maxY[c]! + reach,
    );
    far[c] = near ? 0 : 1;
  }
  for (let r = 0; r < parts.runs; r++) {
    if (!far[parts.runLabel[r]!]) continue;
    const row = parts.runRow[r]! * width;
    out.fill(0, row + parts.runStart[r]!, row + parts.runEnd[r]!);
  }
}

function fillEnclosed(out: Buffer, image: MatteImage): void {
  const { width, height } = image;
  const n = width * height;
  const mask = new Uint8Array(n);
  thresholdMask(out, HALF_ALPHA, mask, 0);
  // 4-connected, so the background does not slip diagonally through an 8-connected subject's outline.
  const background = labelComponents(mask, width, height, 4);
  // The outside: the background parts that reach the image border.
  const outside = new Uint8Array(n);
  paint(outside, background, width, (c) => background.touchesBorder[c] === 1, 1);
  const colours = new ColourModel(out, image, outside);

  // Holes: background parts the subject encloses. The model saw background there; a hole it was fairly sure of
  // (mean alpha under UNSURE_HOLE_ALPHA: the gaps of a wheel's spokes) stays, one it was unsure of (a dip in a
  // soft chest) is filled when its colours are clearly the subject's. Colour alone does not decide: dark gaps
  // look like a black tyre, a red crate behind a fork like the red tank.
  const holeFill = new Uint8Array(background.count);
  for (let c = 0; c < background.count; c++) {
    if (background.touchesBorder[c]) continue;
    const vote = colours.vote(background, c);
    holeFill[c] = vote.meanAlpha >= UNSURE_HOLE_ALPHA && vote.backgroundShare < HOLE_EVIDENCE ? 1 : 0;
  }
  paint(out, background, width, (c) => holeFill[c] === 1, 255);

  // Soft patches: what is left below SOLID_ALPHA beyond the edge band of the outside and the holes kept open. The
  // model saw mostly subject; they become opaque unless their colours are clearly the background's.
  const band = new Uint8Array(n);
  const r = edgeBandWidth(width, height);
  paintDilated(band, background, width, height, (c) => background.touchesBorder[c] === 1 || holeFill[c] === 0, r);
  const solid = SOLID_ALPHA;
  for (let i = 0; i < n; i++) mask[i] = (band[i]! ^ 1) & ((out[i]! - solid) >>> 31);
  const patches = labelComponents(mask, width, height, 8);
  const patchFill = new Uint8Array(patches.count);
  const held = heldBySolid(out, patches, width, height);
  for (let c = 0; c < patches.count; c++)
    patchFill[c] = held[c] === 1 && colours.vote(patches, c).backgroundShare <= PATCH_EVIDENCE ? 1 : 0;
  paint(out, patches, width, (c) => patchFill[c] === 1, 255);
}

/**
 * Per component: 1 when one of its pixels has an 8-neighbour of confident subject (alpha >= SOLID_ALPHA). A soft
 * part with none (a faint blob on its own) is no enclosed patch and is left as the model made it.
 */
function heldBySolid(alpha: Uint8Array, parts: Components, width: number, height: number): Uint8Array {
  const held = new Uint8Array(parts.count);
  for (let r = 0; r < parts.runs; r++) {
    const c = parts.runLabel[r]!;
    if (held[c]) continue;
    const y = parts.runRow[r]!;
    const x0 = Math.max(0, parts.runStart[r]! - 1);
    const x1 = Math.min(width, parts.runEnd[r]! + 1);
    for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1) && !held[c]; yy++)
      for (let i = yy * width + x0, end = yy * width + x1; i < end; i++)
        if (alpha[i]! >= SOLID_ALPHA) {
          held[c] = 1;
          break;
        }
  }
  return held;
}

/** mask = 1 where src < t (above 0) or src >= t (above 1), else 0; branch-free, the hot loop of a 12 MP matte. */
function thresholdMask(src: Uint8Array, t: number, mask: Uint8Array, above: 0 | 1): void {
  for (let i = 0; i < src.length; i++) mask[i] = ((src[i]! - t) >>> 31) ^ above;
}

/** Sets the pixels of the components `which` picks to `value`. */
function paint(target: Uint8Array, parts: Components, width: number, which: (c: number) => boolean, value: number) {
  for (let r = 0; r < parts.runs; r++) {
    if (!which(parts.runLabel[r]!)) continue;
    const row = parts.runRow[r]! * width;
    target.fill(value, row + parts.runStart[r]!, row + parts.runEnd[r]!);
  }
}

/** Colour bins: 8 levels a channel, 512 bins. */
const BIN_SHIFT = 5;
const BINS = 512;
/** Long side of the sampled image the local colour models are counted on. */
const SAMPLE_CELLS = 256;

const binOf = (data: Uint8Array, p: number) =>
  ((data[p]! >> BIN_SHIFT) << 6) | ((data[p + 1]! >> BIN_SHIFT) << 3) | (data[p + 2]! >> BIN_SHIFT);

/**
 * Local colour models of confident background (outside, alpha <= FAINT_ALPHA) and confident subject (alpha >=
 * SOLID_ALPHA): colour histograms counted on a sampled copy of the image in a window around a region, grown until
 * it holds background. A region's pixels, weighted by their transparency (how much background the model saw
 * through them), vote for the model their colour is more frequent in.
 */
class ColourModel {
  private readonly f: number;
  private readonly sw: number;
  private readonly sh: number;
  /** Per sample: colour bin, and 1 background / 2 subject / 0 neither. */
  private readonly bin: Uint16Array;
  private readonly kind: Uint8Array;

  constructor(
    private readonly alpha: Uint8Array,
    private readonly image: MatteImage,
    outside: Uint8Array,
  ) {
    const { width, height, data, channels } = image;
    this.f = Math.max(1, Math.ceil(Math.max(width, height) / SAMPLE_CELLS));
    this.sw = Math.ceil(width / this.f);
    this.sh = Math.ceil(height / this.f);
    this.bin = new Uint16Array(this.sw * this.sh);
    this.kind = new Uint8Array(this.sw * this.sh);
    const half = this.f >> 1;
    for (let sy = 0; sy < this.sh; sy++) {
      const y = Math.min(height - 1, sy * this.f + half);
      for (let sx = 0; sx < this.sw; sx++) {
        const i = y * width + Math.min(width - 1, sx * this.f + half);
        const a = alpha[i]!;
        const k = sy * this.sw + sx;
        this.bin[k] = binOf(data, i * channels);
        this.kind[k] = a >= SOLID_ALPHA ? 2 : a <= FAINT_ALPHA && outside[i] === 1 ? 1 : 0;
      }
    }
  }

  /** Colour histograms of the background and subject samples in a window (sample cells, inclusive); their counts. */
  private count(x0: number, y0: number, x1: number, y1: number, bg: Float64Array, fg: Float64Array): [number, number] {
    bg.fill(0);
    fg.fill(0);
    let bgCount = 0;
    let fgCount = 0;
    for (let sy = y0; sy <= y1; sy++)
      for (let k = sy * this.sw + x0, end = sy * this.sw + x1; k <= end; k++) {
        const kind = this.kind[k]!;
        const b = this.bin[k]!;
        if (kind === 1) {
          bg[b] = bg[b]! + 1;
          bgCount++;
        } else if (kind === 2) {
          fg[b] = fg[b]! + 1;
          fgCount++;
        }
      }
    return [bgCount, fgCount];
  }

  /**
   * Region c's mean alpha, and the share (0..1) of its transparency whose colour is more frequent in the local
   * background than in the local subject.
   */
  vote(parts: Components, c: number): { backgroundShare: number; meanAlpha: number } {
    const { f, sw, sh } = this;
    const size = Math.max(parts.maxX[c]! - parts.minX[c]!, parts.maxY[c]! - parts.minY[c]!) + 1;
    let margin = Math.max(8, Math.round(0.03 * Math.max(this.image.width, this.image.height)), size >> 1);
    const bg = new Float64Array(BINS);
    const fg = new Float64Array(BINS);
    let counts: [number, number];
    for (;;) {
      const x0 = Math.max(0, Math.floor((parts.minX[c]! - margin) / f));
      const y0 = Math.max(0, Math.floor((parts.minY[c]! - margin) / f));
      const x1 = Math.min(sw - 1, Math.floor((parts.maxX[c]! + margin) / f));
      const y1 = Math.min(sh - 1, Math.floor((parts.maxY[c]! + margin) / f));
      counts = this.count(x0, y0, x1, y1, bg, fg);
      const whole = x0 === 0 && y0 === 0 && x1 === sw - 1 && y1 === sh - 1;
      if (counts[0] > 0 || whole) break;
      margin *= 2;
    }
    const [bgCount, fgCount] = counts;
    const { data, channels, width } = this.image;
    let towardBackground = 0;
    let total = 0;
    for (let k = parts.labelOffset[c]!; k < parts.labelOffset[c + 1]!; k++) {
      const r = parts.byLabel[k]!;
      const row = parts.runRow[r]! * width;
      for (let i = row + parts.runStart[r]!, end = row + parts.runEnd[r]!; i < end; i++) {
        const t = 255 - this.alpha[i]!;
        const b = binOf(data, i * channels);
        total += t;
        // Frequencies compared as shares of each model's samples; a colour neither has counts for neither.
        if (bg[b]! * fgCount > fg[b]! * bgCount) towardBackground += t;
      }
    }
    const meanAlpha = 255 - total / parts.area[c]!;
    // No background in the whole image: nothing can show through.
    return { backgroundShare: bgCount === 0 || total === 0 ? 0 : towardBackground / total, meanAlpha };
  }
}

/**
 * Sets to 1 every pixel within `r` (a square window) of the components `which` picks: each run, widened by r, is
 * written into the 2r + 1 rows around it with fill (memset), quicker than a pass of running counts per pixel.
 */
export function paintDilated(
  target: Uint8Array,
  parts: Components,
  width: number,
  height: number,
  which: (c: number) => boolean,
  r: number,
): void {
  for (let k = 0; k < parts.runs; k++) {
    if (!which(parts.runLabel[k]!)) continue;
    const y = parts.runRow[k]!;
    const s = Math.max(0, parts.runStart[k]! - r);
    const e = Math.min(width, parts.runEnd[k]! + r);
    for (let yy = Math.max(0, y - r), last = Math.min(height - 1, y + r); yy <= last; yy++)
      target.fill(1, yy * width + s, yy * width + e);
  }
}

/** Cells on the long side of CoverageGrid: fine enough to place a window, small enough to sum in no time. */
const GRID_CELLS = 256;

/**
 * Which cells of a coarse grid over the image hold some pixel of interest, as a summed-area table, so whether a
 * window (rounded out to whole cells) holds any is four look-ups.
 */
class CoverageGrid {
  private readonly f: number;
  private readonly gw: number;
  private readonly gh: number;
  private readonly sums: Float64Array;

  constructor(width: number, height: number) {
    this.f = Math.max(1, Math.ceil(Math.max(width, height) / GRID_CELLS));
    this.gw = Math.ceil(width / this.f);
    this.gh = Math.ceil(height / this.f);
    this.sums = new Float64Array((this.gw + 1) * (this.gh + 1));
  }

  /** Marks the cells a run [start, end) of row y covers. */
  addRun(y: number, start: number, end: number): void {
    const base = (((y / this.f) | 0) + 1) * (this.gw + 1) + 1;
    for (let cx = (start / this.f) | 0, last = ((end - 1) / this.f) | 0; cx <= last; cx++) this.sums[base + cx] = 1;
  }

  /** Turns the marks into a summed-area table. */
  integrate(): void {
    const w = this.gw + 1;
    const t = this.sums;
    for (let y = 1; y <= this.gh; y++)
      for (let x = 1; x <= this.gw; x++) {
        const i = y * w + x;
        t[i] = t[i]! + t[i - 1]! + t[i - w]! - t[i - w - 1]!;
      }
  }

  /** Whether a marked cell is among those the pixel window [x0, x1] x [y0, y1] (clipped to the image) touches. */
  any(x0: number, y0: number, x1: number, y1: number): boolean {
    const cx0 = Math.max(0, Math.floor(x0 / this.f));
    const cy0 = Math.max(0, Math.floor(y0 / this.f));
    const cx1 = Math.min(this.gw - 1, Math.floor(x1 / this.f)) + 1;
    const cy1 = Math.min(this.gh - 1, Math.floor(y1 / this.f)) + 1;
    const w = this.gw + 1;
    const t = this.sums;
    return t[cy1 * w + cx1]! - t[cy0 * w + cx1]! - t[cy1 * w + cx0]! + t[cy0 * w + cx0]! > 0;
  }
}
