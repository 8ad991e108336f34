/**
 * Mean filter over a (2r+1)^2 window with running sums: O(pixels) whatever the radius. At the borders the
 * window is clipped and the mean taken over the pixels inside, so edges are not darkened.
 */
export function boxFilter(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  // 1 / (pixels inside the clipped window) is the same for every row (and every column): computed once.
  const invW = windowReciprocals(width, r);
  const invH = windowReciprocals(height, r);
  const first = Math.min(r, width - 1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= first; x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum * invW[x]!;
      if (x + r + 1 < width) sum += src[row + x + r + 1]!;
      if (x - r >= 0) sum -= src[row + x - r]!;
    }
  }
  const colSum = new Float64Array(width);
  const firstRows = Math.min(r, height - 1);
  for (let y = 0; y <= firstRows; y++) for (let x = 0; x < width; x++) colSum[x]! += tmp[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const inv = invH[y]!;
    const row = y * width;
    for (let x = 0; x < width; x++) out[row + x] = colSum[x]! * inv;
    if (y + r + 1 < height) {
      const add = (y + r + 1) * width;
      for (let x = 0; x < width; x++) colSum[x]! += tmp[add + x]!;
    }
    if (y - r >= 0) {
      const sub = (y - r) * width;
      for (let x = 0; x < width; x++) colSum[x]! -= tmp[sub + x]!;
    }
  }
  return out;
}

/** For each position along a line of `length`, 1 / the number of positions within r of it on the line. */
function windowReciprocals(length: number, r: number): Float64Array {
  const inv = new Float64Array(length);
  for (let i = 0; i < length; i++) inv[i] = 1 / (Math.min(length - 1, i + r) - Math.max(0, i - r) + 1);
  return inv;
}
