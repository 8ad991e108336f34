/**
 * Tiling for fully convolutional models (ESRGAN): tiles overlap, each tile's outer `pad` pixels towards a
 * neighbour (where its receptive field was cut) get weight 0, and the rest of the overlap is a linear ramp.
 * Blending is done one axis at a time: the tiles of a row are blended left to right into a band, then bands
 * top to bottom into the output, each over what is there. In one dimension the next tile's weight is 1 over
 * the previous tile's unreliable margin, so with pad >= the model's receptive radius every pixel equals the
 * untiled result (the tests check tiled == untiled). Memory: the output, one band and one tile.
 */

export interface Span {
  start: number;
  length: number;
  /** Overlap with the previous span (0 for the first). */
  overlapBefore: number;
}

/**
 * Splits [0, size) into the fewest spans of at most `tile` pixels that overlap by at least `overlap`, all of
 * (nearly) equal length, so no pixel is computed more often than the overlap requires.
 */
export function planSpans(size: number, tile: number, overlap: number): Span[] {
  if (overlap >= tile) throw new Error('overlap must be smaller than the tile');
  if (size <= tile) return [{ start: 0, length: size, overlapBefore: 0 }];
  const count = Math.ceil((size - overlap) / (tile - overlap));
  const length = Math.ceil((size + (count - 1) * overlap) / count);
  const spans: Span[] = [];
  for (let i = 0; i < count; i++) {
    // Starts spread evenly from 0 to size - length; consecutive spans then overlap by >= `overlap`.
    const start = Math.round((i * (size - length)) / (count - 1));
    const prev = spans[i - 1];
    spans.push({ start, length, overlapBefore: prev ? prev.start + prev.length - start : 0 });
  }
  return spans;
}

/**
 * Blend weights along one axis of a tile at output scale: 0 over the first `pad` input pixels after a
 * neighbour, then a ramp up to 1 that ends `pad` pixels before the neighbour's edge.
 */
export function rampWeights(span: Span, scale: number, pad: number): Float32Array {
  const w = new Float32Array(span.length * scale).fill(1);
  if (span.overlapBefore === 0) return w;
  const rampStart = pad * scale;
  const rampLength = Math.max(1, (span.overlapBefore - 2 * pad) * scale);
  for (let d = 0; d < w.length; d++) {
    const t = (d + 0.5 - rampStart) / rampLength;
    w[d] = t <= 0 ? 0 : t >= 1 ? 1 : t;
    if (t >= 1) break;
  }
  return w;
}

/**
 * Blends a model output tile (float NCHW RGB, values 0..valueMax) into an interleaved RGB byte image at
 * (x0, y0) with separable weights. `wx` must ramp up then stay at 1 (rampWeights does), so each row splits
 * into a blended part and a plain copy; the copy is the hot loop, written through a clamped view that rounds
 * and clamps for free.
 */
export function blendTile(
  out: Uint8Array,
  outWidth: number,
  tile: Float32Array,
  tileWidth: number,
  tileHeight: number,
  x0: number,
  y0: number,
  wx: Float32Array,
  wy: Float32Array,
  valueMax: number,
): void {
  const plane = tileWidth * tileHeight;
  const k = 255 / valueMax;
  const clamped = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  let firstFull = 0;
  while (firstFull < tileWidth && wx[firstFull]! < 1) firstFull++;
  for (let y = 0; y < tileHeight; y++) {
    const wyy = wy[y]!;
    if (wyy === 0) continue;
    const rowOut = ((y0 + y) * outWidth + x0) * 3;
    const r = y * tileWidth;
    const g = plane + r;
    const b = 2 * plane + r;
    const fullFrom = wyy === 1 ? firstFull : tileWidth;
    for (let x = 0; x < fullFrom; x++) {
      const w = wyy * wx[x]!;
      if (w === 0) continue;
      const o = rowOut + x * 3;
      clamped[o] = out[o]! * (1 - w) + Math.min(255, Math.max(0, tile[r + x]! * k)) * w;
      clamped[o + 1] = out[o + 1]! * (1 - w) + Math.min(255, Math.max(0, tile[g + x]! * k)) * w;
      clamped[o + 2] = out[o + 2]! * (1 - w) + Math.min(255, Math.max(0, tile[b + x]! * k)) * w;
    }
    for (let x = fullFrom, o = rowOut + fullFrom * 3; x < tileWidth; x++, o += 3) {
      clamped[o] = tile[r + x]! * k;
      clamped[o + 1] = tile[g + x]! * k;
      clamped[o + 2] = tile[b + x]! * k;
    }
  }
}

/** Blends a band of interleaved RGB rows into the output at row y0 with per-row weights. */
export function blendBand(
  out: Uint8Array,
  outWidth: number,
  band: Uint8Array,
  bandHeight: number,
  y0: number,
  wy: Float32Array,
): void {
  const rowBytes = outWidth * 3;
  for (let y = 0; y < bandHeight; y++) {
    const w = wy[y]!;
    if (w === 0) continue;
    const o = (y0 + y) * rowBytes;
    const b = y * rowBytes;
    if (w === 1) {
      out.set(band.subarray(b, b + rowBytes), o);
      continue;
    }
    for (let i = 0; i < rowBytes; i++) out[o + i] = Math.round(out[o + i]! * (1 - w) + band[b + i]! * w);
  }
}

/** Copies a region of an interleaved RGBA byte image into a float NCHW RGB tensor scaled to 0..valueMax. */
export function cropToNchw(
  rgba: Uint8Array,
  width: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
  valueMax: number,
): Float32Array {
  const plane = w * h;
  const out = new Float32Array(3 * plane);
  const k = valueMax / 255;
  for (let y = 0; y < h; y++) {
    const rowIn = ((y0 + y) * width + x0) * 4;
    const rowOut = y * w;
    for (let x = 0; x < w; x++) {
      const s = rowIn + x * 4;
      out[rowOut + x] = rgba[s]! * k;
      out[plane + rowOut + x] = rgba[s + 1]! * k;
      out[2 * plane + rowOut + x] = rgba[s + 2]! * k;
    }
  }
  return out;
}
