/**
 * Mean filter over a (2r+1)^2 window with running sums: O(pixels) whatever the radius. At the borders the
 * window is clipped and the mean taken over the pixels inside, so edges are not darkened.
 */
export function boxFilter(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    const first = Math.min(r, width - 1);
    for (let x = 0; x <= first; x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      const lo = Math.max(0, x - r);
      const hi = Math.min(width - 1, x + r);
      tmp[row + x] = sum / (hi - lo + 1);
      if (x + r + 1 < width) sum += src[row + x + r + 1]!;
      if (x - r >= 0) sum -= src[row + x - r]!;
    }
  }
  const colSum = new Float64Array(width);
  const firstRows = Math.min(r, height - 1);
  for (let y = 0; y <= firstRows; y++) for (let x = 0; x < width; x++) colSum[x]! += tmp[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const lo = Math.max(0, y - r);
    const hi = Math.min(height - 1, y + r);
    const n = hi - lo + 1;
    const row = y * width;
    for (let x = 0; x < width; x++) out[row + x] = colSum[x]! / n;
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
