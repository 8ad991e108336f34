import path from 'node:path';
import sharp from 'sharp';
import { heifEnc } from '@imagestudio/runtime/testing';
import { FIXTURES } from '../test-support/models';
import { ImageInputError, decodeImage } from './decode';

/** A 4x2 image: left half red, right half blue. */
async function redBlue(): Promise<Buffer> {
  const px = Buffer.alloc(4 * 2 * 3);
  for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) px.set(x < 2 ? [255, 0, 0] : [0, 0, 255], (y * 4 + x) * 3);
  return sharp(px, { raw: { width: 4, height: 2, channels: 3 } })
    .png()
    .toBuffer();
}

describe('decodeImage', () => {
  it('returns 8-bit RGBA with an opaque alpha for an RGB input', async () => {
    const img = await decodeImage(await redBlue());
    expect([img.width, img.height, img.channels, img.hasAlpha]).toEqual([4, 2, 4, false]);
    expect(Array.from(img.data.subarray(0, 4))).toEqual([255, 0, 0, 255]);
  });

  it('applies the EXIF orientation', async () => {
    // Orientation 6 = rotate 90° clockwise to display: the 4x2 image shows as 2x4 with red on top.
    const jpeg = await sharp(await redBlue())
      .jpeg({ quality: 100 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const img = await decodeImage(jpeg);
    expect([img.width, img.height]).toEqual([2, 4]);
    expect(img.data[0]).toBeGreaterThan(200); // top-left is red
    expect(img.data[3 * 2 * 4 + 2]).toBeGreaterThan(200); // bottom-left is blue
  });

  it('expands greyscale, 16-bit and CMYK inputs to sRGB bytes', async () => {
    const grey = await sharp(await redBlue())
      .greyscale()
      .png()
      .toBuffer();
    const g = await decodeImage(grey);
    expect(g.data[0]).toBe(g.data[1]);
    const sixteen = await sharp(await redBlue())
      .png()
      .toColourspace('rgb16')
      .toBuffer();
    expect((await sharp(sixteen).metadata()).depth).toBe('ushort');
    expect(Array.from((await decodeImage(sixteen)).data.subarray(0, 4))).toEqual([255, 0, 0, 255]);
    const cmyk = await sharp(await redBlue())
      .toColourspace('cmyk')
      .jpeg({ quality: 100 })
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const c = await decodeImage(cmyk);
    expect(c.data[0]).toBeGreaterThan(180);
    expect(c.data[2]).toBeLessThan(90);
  });

  it('keeps the alpha of an input that has one', async () => {
    const png = await sharp({
      create: { width: 2, height: 2, channels: 4, background: { r: 0, g: 255, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const img = await decodeImage(png);
    expect(img.hasAlpha).toBe(true);
    expect(img.data[3]).toBe(128);
  });

  it('refuses corrupt, truncated, SVG and oversized inputs with user-facing messages', async () => {
    await expect(decodeImage(Buffer.from('not an image at all'))).rejects.toThrow(ImageInputError);
    const png = await redBlue();
    await expect(decodeImage(png.subarray(0, png.length - 20))).rejects.toThrow('could not be read');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    await expect(decodeImage(svg)).rejects.toThrow('not supported');
    const big = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    await expect(decodeImage(big, { maxPixels: 100 * 100 })).rejects.toThrow('too large');
  });
});

/** A 64x48 photo-like test card in Display P3: four flat quadrants, tagged with sharp's P3 profile. */
async function p3Card(): Promise<{ jpeg: Buffer; raw: Buffer; icc: Buffer }> {
  const quad = (r: number, g: number, b: number) => ({ r, g, b });
  const colours = [quad(220, 40, 30), quad(30, 200, 60), quad(40, 60, 210), quad(240, 230, 20)];
  const px = Buffer.alloc(64 * 48 * 3);
  for (let y = 0; y < 48; y++)
    for (let x = 0; x < 64; x++) {
      const c = colours[(y < 24 ? 0 : 2) + (x < 32 ? 0 : 1)]!;
      px.set([c.r, c.g, c.b], (y * 64 + x) * 3);
    }
  const jpeg = await sharp(px, { raw: { width: 64, height: 48, channels: 3 } })
    .withIccProfile('p3')
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .withExif({ IFD0: { Make: 'SecretCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1' } })
    .toBuffer();
  const meta = await sharp(jpeg).metadata();
  const raw = await sharp(jpeg).keepIccProfile().raw().toBuffer();
  return { jpeg, raw, icc: meta.icc! };
}

/** Largest difference between two RGBA/RGB buffers' colour channels. */
function maxColourDiff(a: Buffer, aChannels: number, b: Buffer, bChannels: number): number {
  let max = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; i += aChannels, j += bChannels)
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(a[i + c]! - b[j + c]!));
  return max;
}

describe('decodeImage: phone and camera formats, colour profiles', () => {
  it('keeps a Display P3 input in P3: the same pixel values and the same profile, not converted to sRGB', async () => {
    const { jpeg, raw, icc } = await p3Card();
    const img = await decodeImage(jpeg);
    expect(img.icc?.equals(icc)).toBe(true);
    expect(maxColourDiff(img.data, 4, raw, 3)).toBe(0);
    // What sharp does by default (convert to sRGB) moves the red quadrant by far more than rounding.
    const srgb = await sharp(jpeg).toColourspace('srgb').raw().toBuffer();
    expect(maxColourDiff(srgb, 3, raw, 3)).toBeGreaterThan(10);
  });

  it('converts CMYK to sRGB and keeps no profile; untagged inputs have none', async () => {
    const cmyk = await sharp(await redBlue())
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    expect((await decodeImage(cmyk)).icc).toBeNull();
    expect((await decodeImage(await redBlue())).icc).toBeNull();
  });

  it('decodes an HEVC-coded HEIC (which sharp alone cannot) with its size, colours and P3 profile', async () => {
    const { jpeg, raw, icc } = await p3Card();
    const heic = await heifEnc(jpeg, { quality: 95 });
    await expect(sharp(heic).raw().toBuffer()).rejects.toThrow(/HEVC|decod|plugin/i);
    const img = await decodeImage(heic);
    expect([img.width, img.height, img.format, img.hasAlpha]).toEqual([64, 48, 'heif', false]);
    expect(img.icc?.equals(icc)).toBe(true);
    // Lossy HEVC at 4:2:0: flat quadrants away from their edges stay within a few levels.
    const centre = (buf: Buffer, ch: number, x: number, y: number) =>
      Array.from(buf.subarray((y * 64 + x) * ch, (y * 64 + x) * ch + 3));
    for (const [x, y] of [
      [8, 8],
      [56, 8],
      [8, 40],
      [56, 40],
    ] as const)
      centre(img.data, 4, x, y).forEach((v, c) =>
        expect(Math.abs(v - centre(raw, 3, x, y)[c]!)).toBeLessThanOrEqual(4),
      );
  });

  it('keeps the alpha of a HEIC that has one', async () => {
    const png = await sharp({
      create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const img = await decodeImage(await heifEnc(png, { quality: 95 }));
    expect(img.hasAlpha).toBe(true);
    expect(Math.abs(img.data[3]! - 128)).toBeLessThanOrEqual(2);
  });

  it('decodes AVIF and TIFF inputs', async () => {
    const { jpeg, raw } = await p3Card();
    const avif = await decodeImage(await heifEnc(jpeg, { avif: true, quality: 95 }));
    expect([avif.width, avif.height, avif.format]).toEqual([64, 48, 'heif']);
    expect(avif.icc).not.toBeNull();
    const tiff = await sharp(jpeg).keepIccProfile().tiff({ compression: 'lzw' }).toBuffer();
    const t = await decodeImage(tiff);
    expect([t.width, t.height, t.format]).toEqual([64, 48, 'tiff']);
    expect(maxColourDiff(t.data, 4, raw, 3)).toBe(0);
  });

  it('decodes a HEIC off the main thread: timers keep firing meanwhile', async () => {
    const photo = await sharp(path.join(FIXTURES, 'coffee-300.png')).resize(1200, 800).jpeg({ quality: 90 }).toBuffer();
    const heic = await heifEnc(photo, { quality: 80 });
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    const img = await decodeImage(heic);
    const took = performance.now() - started;
    clearInterval(timer);
    expect([img.width, img.height]).toEqual([1200, 800]);
    // On the main thread the longest gap would be the whole decode; a busy machine still gives far shorter ones.
    expect(maxGap).toBeLessThan(Math.max(took / 2, 50));
  }, 60_000);

  it('refuses a damaged HEIC and one over the pixel limit with the usual messages', async () => {
    const heic = await heifEnc(await redBlue());
    await expect(decodeImage(heic.subarray(0, Math.floor(heic.length * 0.6)))).rejects.toThrow('could not be read');
    const big = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    await expect(decodeImage(await heifEnc(big), { maxPixels: 100 * 100 })).rejects.toThrow('too large');
  });
});
