/**
 * Upscaling quality for `npm run bench:worker`: centre crops of the fixture photos (256 px) are the ground truth;
 * each is reduced to 64 px with bicubic (clean) and also saved as JPEG quality 40 (degraded); bicubic and each
 * user-facing model then bring it back to 256 px (x4), and the result is scored against the crop: PSNR over RGB and
 * SSIM on luma (Gaussian window 11, sigma 1.5, the usual constants).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { UpscaleModel } from '@imagestudio/contracts';
import type { Upscaler } from '../../worker/src/pipelines/upscale';
import { upscaleImage } from '../../worker/src/pipelines/upscale';

// The full-size fixture photos next to the checkout when present (as the browser tests use), else the site's
// 360 px example copies of the same four photos.
const SHARED_PHOTOS = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'photos');
export const QUALITY_PHOTOS = fs.existsSync(SHARED_PHOTOS)
  ? SHARED_PHOTOS
  : path.resolve(__dirname, '..', '..', 'client', 'public', 'examples');
const CROP = 256;
const SCALE = 4;

export interface QualityRow {
  method: string;
  clean: { psnr: number; ssim: number };
  jpeg: { psnr: number; ssim: number };
}

/** PSNR (dB) of two same-sized RGB byte buffers. */
export function psnrRgb(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

function luma(rgb: Uint8Array, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
  return y;
}

/** Separable Gaussian blur (radius 5, sigma 1.5), 'valid' region only, so every window is whole. */
function gauss(x: Float64Array, w: number, h: number): { data: Float64Array; w: number; h: number } {
  const k = Array.from({ length: 11 }, (_, i) => Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5)));
  const sum = k.reduce((s, v) => s + v, 0);
  const kn = k.map((v) => v / sum);
  const tw = w - 10;
  const tmp = new Float64Array(tw * h);
  for (let y = 0; y < h; y++)
    for (let xx = 0; xx < tw; xx++) {
      let s = 0;
      for (let i = 0; i < 11; i++) s += kn[i]! * x[y * w + xx + i]!;
      tmp[y * tw + xx] = s;
    }
  const th = h - 10;
  const out = new Float64Array(tw * th);
  for (let y = 0; y < th; y++)
    for (let xx = 0; xx < tw; xx++) {
      let s = 0;
      for (let i = 0; i < 11; i++) s += kn[i]! * tmp[(y + i) * tw + xx]!;
      out[y * tw + xx] = s;
    }
  return { data: out, w: tw, h: th };
}

/** Mean SSIM on luma of two same-sized RGB byte buffers. */
export function ssimRgb(a: Uint8Array, b: Uint8Array, w: number, h: number): number {
  const x = luma(a, w * h);
  const y = luma(b, w * h);
  const mul = (p: Float64Array, q: Float64Array) => p.map((v, i) => v * q[i]!);
  const mx = gauss(x, w, h).data;
  const my = gauss(y, w, h).data;
  const sxx = gauss(mul(x, x), w, h).data;
  const syy = gauss(mul(y, y), w, h).data;
  const sxy = gauss(mul(x, y), w, h).data;
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  for (let i = 0; i < mx.length; i++) {
    const vx = sxx[i]! - mx[i]! ** 2;
    const vy = syy[i]! - my[i]! ** 2;
    const cxy = sxy[i]! - mx[i]! * my[i]!;
    total += ((2 * mx[i]! * my[i]! + c1) * (2 * cxy + c2)) / ((mx[i]! ** 2 + my[i]! ** 2 + c1) * (vx + vy + c2));
  }
  return total / mx.length;
}

const rgbOf = (img: Buffer | string) => sharp(img).removeAlpha().raw().toBuffer();

/** The crops with their clean and JPEG-q40 low-resolution inputs (PNG bytes). */
async function samples(): Promise<{ name: string; truth: Buffer; clean: Buffer; jpeg: Buffer }[]> {
  const names = fs
    .readdirSync(QUALITY_PHOTOS)
    .filter((f) => /^(astronaut|chelsea|coffee|motorcycle(_left)?)\.(png|webp)$/.test(f))
    .sort();
  if (names.length !== 4)
    throw new Error(`expected the four fixture photos in ${QUALITY_PHOTOS}, found ${names.join(', ')}`);
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(QUALITY_PHOTOS, name);
      const meta = await sharp(file).metadata();
      const left = Math.floor((meta.width! - CROP) / 2);
      const top = Math.floor((meta.height! - CROP) / 2);
      const truthPng = await sharp(file)
        .removeAlpha()
        .extract({ left, top, width: CROP, height: CROP })
        .png()
        .toBuffer();
      const clean = await sharp(truthPng)
        .resize(CROP / SCALE, CROP / SCALE, { kernel: 'cubic' })
        .png()
        .toBuffer();
      const jpeg = await sharp(await sharp(clean).jpeg({ quality: 40 }).toBuffer())
        .png()
        .toBuffer();
      return { name, truth: await rgbOf(truthPng), clean, jpeg };
    }),
  );
}

/** Scores bicubic and each model on every sample; means over the photos. */
export async function upscaleQuality(models: Map<UpscaleModel, Upscaler>): Promise<QualityRow[]> {
  const all = await samples();
  const methods: [string, (png: Buffer) => Promise<Buffer>][] = [
    ['bicubic', (png) => sharp(png).resize(CROP, CROP, { kernel: 'cubic' }).raw().toBuffer()],
    ...[...models].map(([name, upscaler]): [string, (png: Buffer) => Promise<Buffer>] => [
      name,
      async (png) => rgbOf((await upscaleImage(upscaler, png, { outputFormat: 'png' })).data),
    ]),
  ];
  const rows: QualityRow[] = [];
  for (const [method, up] of methods) {
    const score = async (key: 'clean' | 'jpeg') => {
      let p = 0;
      let s = 0;
      for (const sample of all) {
        const out = await up(sample[key]);
        p += psnrRgb(sample.truth, out);
        s += ssimRgb(sample.truth, out, CROP, CROP);
      }
      return { psnr: p / all.length, ssim: s / all.length };
    };
    rows.push({ method, clean: await score('clean'), jpeg: await score('jpeg') });
  }
  return rows;
}
