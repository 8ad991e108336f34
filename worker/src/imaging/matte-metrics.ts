import { labelComponents } from './components';

/**
 * Figures of a matte's quality that need no ground truth, for the bench and the tests of the matte refinement
 * (worker/README.md "Matte refinement"). The silhouette is the subject's filled outline: every pixel not in a
 * background part (alpha below 50%) that reaches the image border, so the holes it encloses count as subject.
 */

/** 1 for the pixels of the filled silhouette, 0 elsewhere. */
export function filledSilhouette(alpha: Uint8Array, width: number, height: number): Uint8Array {
  const n = width * height;
  const below = new Uint8Array(n);
  for (let i = 0; i < n; i++) below[i] = alpha[i]! < 128 ? 1 : 0;
  const parts = labelComponents(below, width, height, 4);
  const silhouette = new Uint8Array(n).fill(1);
  for (let r = 0; r < parts.runs; r++) {
    if (!parts.touchesBorder[parts.runLabel[r]!]) continue;
    const row = parts.runRow[r]! * width;
    silhouette.fill(0, row + parts.runStart[r]!, row + parts.runEnd[r]!);
  }
  return silhouette;
}

export interface MatteFigures {
  /** Pixels of the filled silhouette. */
  silhouette: number;
  /** Share (0..1) of the silhouette with alpha below 90%: a solid subject should have next to none. */
  softShare: number;
  /**
   * Pixels of partial alpha (1-254) in the 1-px band along the outline: the pixels on either side of it (a
   * 4-neighbour on the other side). Hair and fur edges live here; refinement should not shrink it.
   */
  edgeBand: number;
}

/** The figures of one matte (`silhouette` fixes the outline, e.g. the unrefined matte's, to compare two mattes). */
export function matteFigures(
  alpha: Uint8Array,
  width: number,
  height: number,
  silhouette = filledSilhouette(alpha, width, height),
): MatteFigures {
  let area = 0;
  let soft = 0;
  let band = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const s = silhouette[i]!;
      if (s) {
        area++;
        if (alpha[i]! < 230) soft++;
      }
      const edge =
        (x > 0 && silhouette[i - 1] !== s) ||
        (x < width - 1 && silhouette[i + 1] !== s) ||
        (y > 0 && silhouette[i - width] !== s) ||
        (y < height - 1 && silhouette[i + width] !== s);
      if (edge && alpha[i]! > 0 && alpha[i]! < 255) band++;
    }
  }
  return { silhouette: area, softShare: area === 0 ? 0 : soft / area, edgeBand: band };
}
