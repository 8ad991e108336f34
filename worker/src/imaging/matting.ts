import { boxFilter } from './box-filter';

/**
 * Pure pre/post-processing for matting models (ISNet): tensor layout, mask -> alpha, edge refinement,
 * compositing. Images are interleaved 8-bit buffers; masks and alphas are floats in [0, 1] or bytes.
 */

export interface MattingNormalisation {
  mean: number;
  std: number;
}

/** Interleaved RGB(A) bytes -> float32 NCHW RGB with value = (v - mean) / std. */
export function toNchw(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  norm: MattingNormalisation,
): Float32Array {
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  // A lookup per byte value instead of a subtraction and a division per channel of every pixel.
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = (v - norm.mean) / norm.std;
  for (let i = 0; i < plane; i++) {
    const s = i * channels;
    out[i] = lut[pixels[s]!]!;
    out[plane + i] = lut[pixels[s + 1]!]!;
    out[2 * plane + i] = lut[pixels[s + 2]!]!;
  }
  return out;
}

/** Mask floats (clamped to [0, 1]) -> one byte per pixel. */
export function maskToBytes(mask: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(mask.length);
  for (let i = 0; i < mask.length; i++) {
    const v = mask[i]!;
    out[i] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
  }
  return out;
}

/**
 * Guided filter (He et al.) of the alpha, guided by the image's luma: edges snap to the image's own edges
 * (hair, fur) instead of the mask's 1024^2 resampling. `r` window radius, `eps` regularisation.
 */
export function guidedFilterAlpha(
  rgba: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  r: number,
  eps: number,
): Buffer {
  const n = width * height;
  const I = new Float32Array(n);
  const p = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    I[i] = (0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!) / 255;
    p[i] = alpha[i]! / 255;
  }
  const Ip = new Float32Array(n);
  const II = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    Ip[i] = I[i]! * p[i]!;
    II[i] = I[i]! * I[i]!;
  }
  const meanI = boxFilter(I, width, height, r);
  const meanP = boxFilter(p, width, height, r);
  const corrIp = boxFilter(Ip, width, height, r);
  const corrII = boxFilter(II, width, height, r);
  const a = Ip; // reuse buffers
  const b = II;
  for (let i = 0; i < n; i++) {
    const varI = corrII[i]! - meanI[i]! * meanI[i]!;
    const covIp = corrIp[i]! - meanI[i]! * meanP[i]!;
    a[i] = covIp / (varI + eps);
    b[i] = meanP[i]! - a[i]! * meanI[i]!;
  }
  const meanA = boxFilter(a, width, height, r);
  const meanB = boxFilter(b, width, height, r);
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) {
    const q = meanA[i]! * I[i]! + meanB[i]!;
    out[i] = q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
  }
  return out;
}

/**
 * Colour decontamination of semi-transparent pixels: estimates the foreground colour F in I = aF + (1-a)B by
 * two passes of blur-fusion (Forte & Pitie 2021, radius 90 then 6), so background colour does not bleed into
 * hair and edges once the image is placed on another background. The blurred estimates are smooth, so they are
 * computed on a downsampled grid (`factor`, see decontaminationFactor) and sampled back only at the edge pixels,
 * where the final update uses the full-resolution image and alpha. Opaque and fully transparent pixels keep
 * their colour. Works in place on `rgba`.
 */
export function decontaminateEdges(
  rgba: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  factor = decontaminationFactor(width, height),
): void {
  const edges = edgePixels(alpha);
  if (edges.length === 0) return;
  const f = factor;
  const sw = Math.ceil(width / f);
  const sh = Math.ceil(height / f);
  const aS = downsample(alpha, width, height, f, 1, 0, 1 / 255);
  const oneMinusAS = aS.map((v) => 1 - v);
  const r1 = Math.max(1, Math.round(90 / f));
  const r2 = Math.max(1, Math.round(6 / f));
  const blurA1 = boxFilter(aS, sw, sh, r1);
  const blurA2 = boxFilter(aS, sw, sh, r2);
  // The two estimates of each channel on the grid first, so the edge pixels' sampling positions and weights
  // are worked out once per pixel for all six fields rather than once per field.
  const fields: Float32Array[] = [];
  for (let c = 0; c < 3; c++) {
    // The channel is read straight from the interleaved bytes: no full-resolution float copy is made.
    const image = downsample(rgba, width, height, f, 4, c, 1 / 255);
    const [fb1, bb1] = blurredEstimates(image, image, aS, oneMinusAS, blurA1, sw, sh, r1);
    const F1 = fuse(image, aS, oneMinusAS, fb1!, bb1!);
    const [fb2, bb2] = blurredEstimates(F1, bb1!, aS, oneMinusAS, blurA2, sw, sh, r2);
    fields.push(fb2!, bb2!);
  }
  const at = new BilinearPoint();
  for (let k = 0; k < edges.length; k++) {
    const i = edges[k]!;
    const x = i % width;
    at.set(sw, sh, x, (i - x) / width, f);
    const a = alpha[i]! / 255;
    for (let c = 0; c < 3; c++) {
      const fb = at.sample(fields[2 * c]!);
      const bb = at.sample(fields[2 * c + 1]!);
      const v = fb + a * (rgba[i * 4 + c]! / 255 - a * fb - (1 - a) * bb);
      rgba[i * 4 + c] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
    }
  }
}

/** sampleBilinear's position and weights for one pixel, reused for every field sampled there (same arithmetic). */
class BilinearPoint {
  private i00 = 0;
  private i01 = 0;
  private i10 = 0;
  private i11 = 0;
  private tx = 0;
  private ty = 0;

  set(sw: number, sh: number, x: number, y: number, f: number): void {
    if (f === 1) {
      this.i00 = this.i01 = this.i10 = this.i11 = y * sw + x;
      this.tx = this.ty = 0;
      return;
    }
    const sx = Math.min(Math.max((x + 0.5) / f - 0.5, 0), sw - 1);
    const sy = Math.min(Math.max((y + 0.5) / f - 0.5, 0), sh - 1);
    const x0 = Math.floor(sx);
    const y0 = Math.floor(sy);
    const x1 = Math.min(x0 + 1, sw - 1);
    const y1 = Math.min(y0 + 1, sh - 1);
    this.tx = sx - x0;
    this.ty = sy - y0;
    this.i00 = y0 * sw + x0;
    this.i01 = y0 * sw + x1;
    this.i10 = y1 * sw + x0;
    this.i11 = y1 * sw + x1;
  }

  sample(src: Float32Array): number {
    const { tx, ty } = this;
    const top = src[this.i00]! * (1 - tx) + src[this.i01]! * tx;
    const bottom = src[this.i10]! * (1 - tx) + src[this.i11]! * tx;
    return top * (1 - ty) + bottom * ty;
  }
}

export const DECONTAMINATION_GRID = 256;

/**
 * The downsampling factor of decontaminateEdges: a working grid of about `grid` pixels on the long side
 * (by default 256, where radius 90 becomes about 22 at 1024^2), chosen by
 * worker/src/scripts/compare-edge-refinement.ts, which also tries other grids.
 */
export function decontaminationFactor(width: number, height: number, grid = DECONTAMINATION_GRID): number {
  return Math.max(1, Math.round(Math.max(width, height) / grid));
}

/** Indices of the pixels with 0 < alpha < 255. */
function edgePixels(alpha: Uint8Array): Uint32Array {
  let count = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i]! > 0 && alpha[i]! < 255) count++;
  const edges = new Uint32Array(count);
  for (let i = 0, k = 0; i < alpha.length; i++) if (alpha[i]! > 0 && alpha[i]! < 255) edges[k++] = i;
  return edges;
}

/** Blurred foreground and background estimates: blur(F a) / blur(a) and blur(B (1-a)) / blur(1-a). */
function blurredEstimates(
  F: Float32Array,
  B: Float32Array,
  a: Float32Array,
  oneMinusA: Float32Array,
  blurA: Float32Array,
  w: number,
  h: number,
  r: number,
): Float32Array[] {
  const FA = new Float32Array(F.length);
  const B1A = new Float32Array(F.length);
  for (let i = 0; i < F.length; i++) {
    FA[i] = F[i]! * a[i]!;
    B1A[i] = B[i]! * oneMinusA[i]!;
  }
  const fb = boxFilter(FA, w, h, r);
  const bb = boxFilter(B1A, w, h, r);
  for (let i = 0; i < F.length; i++) {
    fb[i] = fb[i]! / (blurA[i]! + 1e-5);
    bb[i] = bb[i]! / (1 - blurA[i]! + 1e-5);
  }
  return [fb, bb];
}

/** One blur-fusion update: F = fb + a (I - a fb - (1-a) bb), clamped to [0, 1]. */
function fuse(
  image: Float32Array,
  a: Float32Array,
  oneMinusA: Float32Array,
  fb: Float32Array,
  bb: Float32Array,
): Float32Array {
  const F = new Float32Array(image.length);
  for (let i = 0; i < image.length; i++) {
    const v = fb[i]! + a[i]! * (image[i]! - a[i]! * fb[i]! - oneMinusA[i]! * bb[i]!);
    F[i] = v < 0 ? 0 : v > 1 ? 1 : v;
  }
  return F;
}

/**
 * Area-average downsampling by an integer factor (partial blocks at the edges averaged over what they hold).
 * Reads every `stride`-th value from `offset` (one channel of interleaved pixels) and multiplies by `scale`.
 */
export function downsample(
  src: ArrayLike<number>,
  w: number,
  h: number,
  f: number,
  stride = 1,
  offset = 0,
  scale = 1,
): Float32Array {
  const sw = Math.ceil(w / f);
  const sh = Math.ceil(h / f);
  const out = new Float32Array(sw * sh);
  for (let by = 0; by < sh; by++) {
    const y0 = by * f;
    const y1 = Math.min(y0 + f, h);
    for (let bx = 0; bx < sw; bx++) {
      const x0 = bx * f;
      const x1 = Math.min(x0 + f, w);
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += src[(y * w + x) * stride + offset]!;
      out[by * sw + bx] = (sum * scale) / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}

/** Bilinear sample of a downsample()d field at full-resolution pixel (x, y), sample centres aligned. */
export function sampleBilinear(src: Float32Array, sw: number, sh: number, x: number, y: number, f: number): number {
  if (f === 1) return src[y * sw + x]!;
  const sx = Math.min(Math.max((x + 0.5) / f - 0.5, 0), sw - 1);
  const sy = Math.min(Math.max((y + 0.5) / f - 0.5, 0), sh - 1);
  const x0 = Math.floor(sx);
  const y0 = Math.floor(sy);
  const x1 = Math.min(x0 + 1, sw - 1);
  const y1 = Math.min(y0 + 1, sh - 1);
  const tx = sx - x0;
  const ty = sy - y0;
  const top = src[y0 * sw + x0]! * (1 - tx) + src[y0 * sw + x1]! * tx;
  const bottom = src[y1 * sw + x0]! * (1 - tx) + src[y1 * sw + x1]! * tx;
  return top * (1 - ty) + bottom * ty;
}

export interface CompositeOptions {
  /** '#rrggbb': a solid background instead of transparency. */
  backgroundColor?: string;
}

/**
 * Applies the alpha to the image: RGBA with alpha = mask x the input's own alpha (colour zeroed where that is
 * 0), or, with a background colour, opaque RGB blended onto it.
 */
export function compositeAlpha(
  rgba: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  options: CompositeOptions = {},
): { data: Buffer; channels: 3 | 4 } {
  const n = width * height;
  if (options.backgroundColor) {
    const bg = parseHexColor(options.backgroundColor);
    const out = Buffer.allocUnsafe(n * 3);
    for (let i = 0; i < n; i++) {
      const a = (alpha[i]! * rgba[i * 4 + 3]!) / (255 * 255);
      for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(rgba[i * 4 + c]! * a + bg[c]! * (1 - a));
    }
    return { data: out, channels: 3 };
  }
  const out = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const copy = Buffer.allocUnsafe(out.length);
  out.copy(copy);
  for (let i = 0; i < n; i++) {
    const a = Math.round((alpha[i]! * rgba[i * 4 + 3]!) / 255);
    copy[i * 4 + 3] = a;
    // The colour of a fully transparent pixel shows nowhere; zeros there make the PNG about half the size and
    // quicker to encode (worker/README.md "PNG encoding").
    if (a === 0) copy[i * 4] = copy[i * 4 + 1] = copy[i * 4 + 2] = 0;
  }
  return { data: copy, channels: 4 };
}

/** '#rrggbb' -> [r, g, b]. */
export function parseHexColor(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

/** Intersection over union of two masks thresholded at 50%. */
export function maskIou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! >= 128;
    const y = b[i]! >= 128;
    if (x && y) inter++;
    if (x || y) union++;
  }
  return union === 0 ? 1 : inter / union;
}
