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
export function toNchw(pixels: Uint8Array, width: number, height: number, channels: number, norm: MattingNormalisation): Float32Array {
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const s = i * channels;
    out[i] = (pixels[s]! - norm.mean) / norm.std;
    out[plane + i] = (pixels[s + 1]! - norm.mean) / norm.std;
    out[2 * plane + i] = (pixels[s + 2]! - norm.mean) / norm.std;
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
export function guidedFilterAlpha(rgba: Uint8Array, alpha: Uint8Array, width: number, height: number, r: number, eps: number): Buffer {
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
 * two passes of blur-fusion (Forte & Pitie 2021, large then small radius), so background colour does not
 * bleed into hair and edges once the image is placed on another background. Opaque and fully transparent
 * pixels keep their colour. Works in place on `rgba`.
 */
export function decontaminateEdges(rgba: Uint8Array, alpha: Uint8Array, width: number, height: number): void {
  const n = width * height;
  const a = new Float32Array(n);
  let edges = 0;
  for (let i = 0; i < n; i++) {
    a[i] = alpha[i]! / 255;
    if (alpha[i]! > 0 && alpha[i]! < 255) edges++;
  }
  if (edges === 0) return;
  const oneMinusA = new Float32Array(n);
  for (let i = 0; i < n; i++) oneMinusA[i] = 1 - a[i]!;
  for (let c = 0; c < 3; c++) {
    const image = new Float32Array(n);
    for (let i = 0; i < n; i++) image[i] = rgba[i * 4 + c]! / 255;
    let F: Float32Array = image;
    let B: Float32Array = image;
    for (const r of [90, 6]) {
      [F, B] = blurFusion(image, F, B, a, oneMinusA, width, height, r) as [Float32Array, Float32Array];
    }
    for (let i = 0; i < n; i++) {
      if (alpha[i]! > 0 && alpha[i]! < 255) rgba[i * 4 + c] = Math.round(F[i]! * 255);
    }
  }
}

function blurFusion(image: Float32Array, F: Float32Array, B: Float32Array, a: Float32Array, oneMinusA: Float32Array, w: number, h: number, r: number): Float32Array[] {
  const n = image.length;
  const FA = new Float32Array(n);
  const B1A = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    FA[i] = F[i]! * a[i]!;
    B1A[i] = B[i]! * oneMinusA[i]!;
  }
  const blurA = boxFilter(a, w, h, r);
  const blurFA = boxFilter(FA, w, h, r);
  const blurB1A = boxFilter(B1A, w, h, r);
  const outF = new Float32Array(n);
  const outB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const fb = blurFA[i]! / (blurA[i]! + 1e-5);
    const bb = blurB1A[i]! / (1 - blurA[i]! + 1e-5);
    const f = fb + a[i]! * (image[i]! - a[i]! * fb - oneMinusA[i]! * bb);
    outF[i] = f < 0 ? 0 : f > 1 ? 1 : f;
    outB[i] = bb;
  }
  return [outF, outB];
}

export interface CompositeOptions {
  /** '#rrggbb': a solid background instead of transparency. */
  backgroundColor?: string;
}

/**
 * Applies the alpha to the image: RGBA with alpha = mask x the input's own alpha, or, with a background
 * colour, opaque RGB blended onto it.
 */
export function compositeAlpha(rgba: Uint8Array, alpha: Uint8Array, width: number, height: number, options: CompositeOptions = {}): { data: Buffer; channels: 3 | 4 } {
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
  for (let i = 0; i < n; i++) copy[i * 4 + 3] = Math.round((alpha[i]! * rgba[i * 4 + 3]!) / 255);
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
