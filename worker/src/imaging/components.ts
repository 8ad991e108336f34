/**
 * Connected components of a binary mask, found on its runs (stretches of set pixels in a row) instead of pixel by
 * pixel: a row is scanned once and each run is joined to the runs it touches in the row above with union-find, so
 * a 12 MP mask is labelled in one pass over its bytes plus a little work per run.
 */

export interface Components {
  /** Number of components; labels are 0..count-1. */
  count: number;
  /** Number of runs. */
  runs: number;
  /** Per run: its row, first pixel and end (exclusive) in that row, and its component. */
  runRow: Int32Array;
  runStart: Int32Array;
  runEnd: Int32Array;
  runLabel: Int32Array;
  /** The runs grouped by component: those of component c are byLabel[labelOffset[c]..labelOffset[c + 1]). */
  byLabel: Int32Array;
  labelOffset: Int32Array;
  /** Per component: pixels, bounding box (inclusive) and whether it touches the image border. */
  area: Float64Array;
  minX: Int32Array;
  minY: Int32Array;
  maxX: Int32Array;
  maxY: Int32Array;
  touchesBorder: Uint8Array;
}

/**
 * Components of the set pixels of `mask` (width x height, one byte a pixel, each 0 or 1). Connectivity 8 joins diagonal
 * neighbours, 4 does not (use 4 for the background when the foreground is 8-connected, so the two do not cross).
 */
export function labelComponents(mask: Uint8Array, width: number, height: number, connectivity: 4 | 8): Components {
  let capacity = Math.max(64, height * 4);
  let runRow = new Int32Array(capacity);
  let runStart = new Int32Array(capacity);
  let runEnd = new Int32Array(capacity);
  let runs = 0;
  const rowFirst = new Int32Array(height + 1);
  // Runs are found with indexOf (memchr), which is many times quicker than a loop over the bytes; a search that
  // ran past the current row is remembered, so rows are never searched twice.
  const n = width * height;
  let nextSet = -2;
  let nextClear = -2;
  let pos = 0;
  let filledRows = 0;
  while (pos < n) {
    if (nextSet < pos && nextSet !== -1) nextSet = mask.indexOf(1, pos);
    if (nextSet === -1) break;
    const y = (nextSet / width) | 0;
    while (filledRows <= y) rowFirst[filledRows++] = runs;
    const rowEnd = (y + 1) * width;
    if (nextClear <= nextSet) {
      nextClear = mask.indexOf(0, nextSet);
      if (nextClear === -1) nextClear = n;
    }
    const end = nextClear > rowEnd ? rowEnd : nextClear;
    if (runs === capacity) {
      capacity *= 2;
      runRow = grow(runRow, capacity);
      runStart = grow(runStart, capacity);
      runEnd = grow(runEnd, capacity);
    }
    runRow[runs] = y;
    runStart[runs] = nextSet - y * width;
    runEnd[runs] = end - y * width;
    runs++;
    pos = end;
  }
  while (filledRows <= height) rowFirst[filledRows++] = runs;

  const parent = new Int32Array(runs);
  for (let i = 0; i < runs; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  // Runs [s, e) in adjacent rows touch when they overlap, or (8-connectivity) meet at a corner.
  const reach = connectivity === 8 ? 1 : 0;
  for (let y = 1; y < height; y++) {
    let a = rowFirst[y - 1]!;
    const aEnd = rowFirst[y]!;
    let b = rowFirst[y]!;
    const bEnd = rowFirst[y + 1]!;
    while (a < aEnd && b < bEnd) {
      if (runStart[a]! < runEnd[b]! + reach && runStart[b]! < runEnd[a]! + reach) {
        const ra = find(a);
        const rb = find(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
      // The run that ends first cannot touch anything further right in the other row.
      if (runEnd[a]! < runEnd[b]!) a++;
      else b++;
    }
  }

  // Roots get consecutive labels in run order (a root is the lowest run of its component, so it comes first).
  const runLabel = new Int32Array(runs);
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const root = find(i);
    runLabel[i] = root === i ? count++ : runLabel[root]!;
  }
  const area = new Float64Array(count);
  const minX = new Int32Array(count).fill(width);
  const minY = new Int32Array(count).fill(height);
  const maxX = new Int32Array(count).fill(-1);
  const maxY = new Int32Array(count).fill(-1);
  const touchesBorder = new Uint8Array(count);
  for (let i = 0; i < runs; i++) {
    const c = runLabel[i]!;
    const y = runRow[i]!;
    const s = runStart[i]!;
    const e = runEnd[i]!;
    area[c] = area[c]! + e - s;
    if (s < minX[c]!) minX[c] = s;
    if (e - 1 > maxX[c]!) maxX[c] = e - 1;
    if (y < minY[c]!) minY[c] = y;
    if (y > maxY[c]!) maxY[c] = y;
    if (y === 0 || y === height - 1 || s === 0 || e === width) touchesBorder[c] = 1;
  }
  // Counting sort of the runs by component, so one component's pixels are visited without a scan of all runs.
  const labelOffset = new Int32Array(count + 1);
  for (let i = 0; i < runs; i++) labelOffset[runLabel[i]! + 1] = labelOffset[runLabel[i]! + 1]! + 1;
  for (let c = 0; c < count; c++) labelOffset[c + 1] = labelOffset[c + 1]! + labelOffset[c]!;
  const byLabel = new Int32Array(runs);
  const next = labelOffset.slice(0, count);
  for (let i = 0; i < runs; i++) byLabel[next[runLabel[i]!]!++] = i;
  return {
    count,
    runs,
    runRow: runRow.subarray(0, runs),
    runStart: runStart.subarray(0, runs),
    runEnd: runEnd.subarray(0, runs),
    runLabel,
    byLabel,
    labelOffset,
    area,
    minX,
    minY,
    maxX,
    maxY,
    touchesBorder,
  };
}

function grow(a: Int32Array<ArrayBuffer>, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}
