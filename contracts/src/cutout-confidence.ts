import { labelGridParts, SUBJECT_ALPHA_THRESHOLD, subjectGridCell } from './subject-box';

/**
 * A background removal's cut-out confidence (0-1, two decimals): how far its matte can be trusted. The job view's
 * `cutout_confidence`, the header `X-Cutout-Confidence` of /v1.0/removebg and the tool page's touch-up hint all
 * read the score the worker computes with cutoutConfidence below.
 */

/**
 * Below this a cut-out is doubtful and the tool page suggests a touch-up. Between the fixture photos' scores: the
 * clean cup (1.00) and astronaut (0.94) above it; the cat with a grey patch beside its ear (0.76) and the motorcycle
 * with shelf items left half transparent (0.77) below it, as is any matte with large half-transparent areas.
 */
export const DOUBTFUL_CUTOUT_CONFIDENCE = 0.85;

/** Whether a cut-out's confidence says to check it (no score, e.g. an older job, is not doubtful). */
export function isDoubtfulCutout(confidence: number | null | undefined): boolean {
  return typeof confidence === 'number' && confidence < DOUBTFUL_CUTOUT_CONFIDENCE;
}

/**
 * How far a cut-out can be trusted, read from its refined matte alone (no ground truth): a matte the model was
 * sure of is opaque inside the subject and transparent outside, with a thin soft edge. Two things make it doubtful
 * (docs/product-photos.md "Cut-out confidence"):
 *
 * - **Uncertain pixels inside the subject**: the share of the subject's pixels (alpha >= SUBJECT_ALPHA_THRESHOLD,
 *   the subject box's 10%) whose alpha is between that and UNCERTAIN_MAX (26..229), counting only those further
 *   than the edge allowance from the background (alpha < 26). A soft band along the outline is normal (hair, fur,
 *   anti-aliasing: the model's 1024 px output enlarged to the photo) and is left out; half-transparent patches
 *   inside the subject are what show as ghostly on a new background.
 * - **Small detached parts**: separate parts of the subject smaller than DETACHED_SHARE of the largest one, found
 *   with the subject box's labelling (labelGridParts on the grid subjectBoxOf uses: cells of f x f pixels,
 *   f = subjectGridCell, about 256 cells on the long side; 8-connected). A second shoe is a part of real size and
 *   costs nothing; fragments and blobs beside the subject are what a touch-up removes.
 *
 * confidence = 1 - UNCERTAIN_WEIGHT x uncertain share - min(DETACHED_MAX_PENALTY, DETACHED_PENALTY x small
 * parts), clamped to 0..1 and rounded to two decimals. Pure arithmetic over the matte's bytes (no image library),
 * like subjectBoxOf: the worker scores every cut-out with it, and the API's test worker its fake ones.
 */

/** The top of the uncertain band: from 230 (90%) a pixel is confident subject (matte refinement's SOLID_ALPHA). */
export const UNCERTAIN_MAX = 229;
/**
 * What one unit of uncertain share costs: a subject with a tenth of its inside half transparent scores 0.6, a
 * quarter or more 0 (measured on the fixture photos and synthetic mattes, docs/product-photos.md).
 */
export const UNCERTAIN_WEIGHT = 4;
/** A separate part smaller than this share of the largest part is a small detached part. */
export const DETACHED_SHARE = 0.05;
/** What each small detached part costs, up to DETACHED_MAX_PENALTY in all. */
export const DETACHED_PENALTY = 0.05;
/** Fragments alone never make a cut-out worthless: at most this is taken off for them. */
export const DETACHED_MAX_PENALTY = 0.25;

/**
 * Pixels this close to the background (a square window around them) are the soft edge, not the inside: 1 px per
 * 512 px of the long side, at least 2, as the model's edges widen when its 1024 px output is enlarged.
 */
export function edgeAllowance(width: number, height: number): number {
  return Math.max(2, Math.round(Math.max(width, height) / 512));
}

export interface CutoutFigures {
  /** 0..1 with two decimals. */
  confidence: number;
  /** Uncertain pixels beyond the edge allowance, as a share of the subject's pixels. */
  uncertainShare: number;
  /** Parts smaller than DETACHED_SHARE of the largest. */
  detachedParts: number;
  /** Pixels with alpha >= SUBJECT_ALPHA_THRESHOLD. */
  subjectPixels: number;
}

/** The figures of a matte (`width` x `height`, one byte a pixel); null when it holds no subject pixel. */
export function cutoutConfidence(alpha: Uint8Array, width: number, height: number): CutoutFigures | null {
  const n = width * height;
  if (alpha.length !== n) throw new Error('the matte is not the size it says');
  const t = SUBJECT_ALPHA_THRESHOLD;
  const k = edgeAllowance(width, height);
  // Row by row: the subject's pixels counted into the grid cells, and `near`, 1 where a background pixel lies
  // within k on the same row (a running count over the window), for the column check below.
  const f = subjectGridCell(width, height);
  const gw = Math.ceil(width / f);
  const gh = Math.ceil(height / f);
  const cells = new Float64Array(gw * gh);
  const near = new Uint8Array(n);
  let subject = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const cellRow = ((y / f) | 0) * gw;
    let background = 0;
    for (let x = 0; x < Math.min(k, width); x++) if (alpha[row + x]! < t) background++;
    for (let x = 0; x < width; x++) {
      if (x + k < width && alpha[row + x + k]! < t) background++;
      if (x - k - 1 >= 0 && alpha[row + x - k - 1]! < t) background--;
      near[row + x] = background > 0 ? 1 : 0;
      if (alpha[row + x]! >= t) {
        subject++;
        cells[cellRow + ((x / f) | 0)]!++;
      }
    }
  }
  if (subject === 0) return null;

  // An uncertain pixel is inside when no row within k of it has a background pixel within k of its column.
  let uncertain = 0;
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - k);
    const y1 = Math.min(height - 1, y + k);
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const a = alpha[i]!;
      if (a < t || a > UNCERTAIN_MAX) continue;
      let inside = true;
      for (let yy = y0; yy <= y1 && inside; yy++) if (near[yy * width + x] === 1) inside = false;
      if (inside) uncertain++;
    }
  }

  const { weights } = labelGridParts(cells, gw, gh);
  let largest = 0;
  for (const w of weights) largest = Math.max(largest, w);
  const detachedParts = weights.filter((w) => w < largest * DETACHED_SHARE).length;

  const uncertainShare = uncertain / subject;
  const penalty = UNCERTAIN_WEIGHT * uncertainShare + Math.min(DETACHED_MAX_PENALTY, DETACHED_PENALTY * detachedParts);
  const confidence = Math.round(Math.min(1, Math.max(0, 1 - penalty)) * 100) / 100;
  return { confidence, uncertainShare, detachedParts, subjectPixels: subject };
}
