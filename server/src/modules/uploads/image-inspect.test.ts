import sharp from 'sharp';
import { AppError } from '../../lib/errors';
import { checkImageHeader, checkUpscaleOutput, inspectUpload, UPLOAD_MESSAGES } from './image-inspect';
import {
  animatedPng,
  animatedWebp,
  gifImage,
  jpegWithExif,
  multiPageTiff,
  p3JpegWithGps,
  phoneFormatImage,
  pixelBombHeic,
  pixelBombPng,
  pixelBombTiff,
  solidImage,
  svgImage,
} from './test-images';

async function rejection(bytes: Buffer): Promise<AppError> {
  const err = await inspectUpload(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(422);
  return err as AppError;
}

describe('inspectUpload', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('accepts a plain %s and keeps its format and size', async (format) => {
    const clean = await inspectUpload(await solidImage(format, 64, 48));
    expect(clean).toMatchObject({ format, width: 64, height: 48, contentType: `image/${format}` });
    expect((await sharp(clean.bytes).metadata()).format).toBe(format);
  });

  it('strips EXIF from what it returns', async () => {
    const original = await jpegWithExif();
    expect(original.includes(Buffer.from('SecretCam'))).toBe(true);
    const clean = await inspectUpload(original);
    expect(clean.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
    expect((await sharp(clean.bytes).metadata()).exif).toBeUndefined();
  });

  it('refuses an empty file', async () => {
    expect((await rejection(Buffer.alloc(0))).message).toBe(UPLOAD_MESSAGES.empty);
  });

  it('takes the type from the bytes: GIF, SVG and text are refused', async () => {
    for (const bytes of [await gifImage(), svgImage, Buffer.from('hello, not an image')]) {
      expect((await rejection(bytes)).message).toBe(UPLOAD_MESSAGES.wrongType);
    }
  });

  it('refuses truncated files of each format', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const full = await solidImage(format, 300, 200);
      expect((await rejection(full.subarray(0, Math.floor(full.length * 0.6)))).message).toBe(UPLOAD_MESSAGES.damaged);
    }
  });

  it('refuses polyglots: an archive or a page appended after the image', async () => {
    const zip = Buffer.from('PK\u0003\u0004 pretend archive <html><script>alert(1)</script></html>', 'latin1');
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const err = await rejection(Buffer.concat([await solidImage(format), zip]));
      expect(err.message).toBe(UPLOAD_MESSAGES.extraData);
    }
  });

  it('refuses a PNG signature followed by something else', async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('<html></html>'),
    ]);
    expect((await rejection(fake)).message).toBe(UPLOAD_MESSAGES.damaged);
  });

  it('refuses animated WebP and APNG', async () => {
    expect((await rejection(await animatedWebp())).message).toBe(UPLOAD_MESSAGES.animated);
    expect((await rejection(await animatedPng())).message).toBe(UPLOAD_MESSAGES.animated);
  });

  it('refuses a decompression bomb from its header in well under a second', async () => {
    const bomb = pixelBombPng(20_000);
    expect(bomb.length).toBeLessThan(200_000);
    const started = performance.now();
    const err = await rejection(bomb);
    expect(performance.now() - started).toBeLessThan(300);
    expect(err.message).toBe(UPLOAD_MESSAGES.tooManyPixels);
    expect(err.message).toContain('25 megapixels');
  });

  it('refuses images above the pixel limit it is given', async () => {
    const err = await inspectUpload(await solidImage('png', 100, 100), 5000).catch((e: AppError) => e);
    expect((err as AppError).message).toBe(UPLOAD_MESSAGES.tooManyPixels);
  });
});

describe('checkUpscaleOutput', () => {
  it('allows 2048x2048 at 4x and refuses one pixel more, naming the limit', () => {
    expect(() => checkUpscaleOutput(2048, 2048, 4)).not.toThrow();
    expect(() => checkUpscaleOutput(4096, 4096, 2)).not.toThrow();
    const err = (() => {
      try {
        checkUpscaleOutput(2049, 2048, 4);
      } catch (e) {
        return e as AppError;
      }
      return null;
    })();
    expect(err?.status).toBe(422);
    expect(err?.message).toContain('64 megapixels');
    expect(err?.message).toContain('2048x2048');
  });
});

describe('inspectUpload: phone and camera formats, colour', () => {
  it('accepts a HEIC from its header alone and keeps its bytes for the worker (the API cannot decode HEVC)', async () => {
    const heic = await phoneFormatImage('heic', 64, 48);
    const clean = await inspectUpload(heic);
    expect(clean).toMatchObject({ format: 'heic', width: 64, height: 48, contentType: 'image/heic' });
    expect(clean.bytes.equals(heic)).toBe(true);
    expect(await checkImageHeader(heic)).toEqual({ format: 'heic', width: 64, height: 48, contentType: 'image/heic' });
  });

  it.each(['avif', 'tiff'] as const)('accepts a %s, stored as a lossless PNG of the same size', async (format) => {
    const bytes = await phoneFormatImage(format, 64, 48);
    expect(await checkImageHeader(bytes)).toMatchObject({ format, width: 64, height: 48 });
    const clean = await inspectUpload(bytes);
    expect(clean).toMatchObject({ format: 'png', width: 64, height: 48, contentType: 'image/png' });
    const src = await sharp(bytes).raw().toBuffer();
    expect((await sharp(clean.bytes).raw().toBuffer()).equals(src)).toBe(true);
  });

  it('keeps a Display P3 profile and its pixel values, and drops the GPS EXIF', async () => {
    const p3 = await p3JpegWithGps();
    const icc = (await sharp(p3).metadata()).icc!;
    const pixels = await sharp(p3).keepIccProfile().raw().toBuffer();
    for (const input of [p3, await sharp(p3).keepIccProfile().tiff().toBuffer()]) {
      const clean = await inspectUpload(input);
      const meta = await sharp(clean.bytes).metadata();
      expect(meta.icc?.equals(icc)).toBe(true);
      expect(meta.exif).toBeUndefined();
      const kept = await sharp(clean.bytes).keepIccProfile().raw().toBuffer();
      // JPEG is re-encoded at quality 95: within rounding of the P3 values, far from their sRGB conversion.
      let max = 0;
      for (let i = 0; i < kept.length; i++) max = Math.max(max, Math.abs(kept[i]! - pixels[i]!));
      expect(max).toBeLessThanOrEqual(3);
    }
  });

  it('refuses truncated HEIC and AVIF files and data appended after them', async () => {
    const zip = Buffer.from('PK\u0003\u0004 pretend archive', 'latin1');
    for (const format of ['heic', 'avif'] as const) {
      const full = await phoneFormatImage(format, 300, 200);
      expect((await rejection(full.subarray(0, Math.floor(full.length * 0.6)))).message).toBe(UPLOAD_MESSAGES.damaged);
      // Bytes after the last box that cannot be a box are extra data; an archive's first word read as a box
      // size runs past the end, so the file is damaged.
      expect((await rejection(Buffer.concat([full, zip.subarray(0, 4)]))).message).toBe(UPLOAD_MESSAGES.extraData);
      expect((await rejection(Buffer.concat([full, zip]))).message).toBe(UPLOAD_MESSAGES.damaged);
    }
  });

  it('refuses TIFF and HEIC bombs from their headers in well under a second', async () => {
    for (const bomb of [pixelBombTiff(30_000), await pixelBombHeic(20_000)]) {
      expect(bomb.length).toBeLessThan(10_000);
      const started = performance.now();
      const err = await rejection(bomb);
      expect(performance.now() - started).toBeLessThan(300);
      expect(err.message).toBe(UPLOAD_MESSAGES.tooManyPixels);
    }
  });

  it('refuses an AVIF or HEIF image sequence (animation) by its brand', async () => {
    const sequence = Buffer.from(await phoneFormatImage('avif'));
    sequence.write('avis', 8, 'latin1'); // the major brand of an AVIF image sequence
    expect((await rejection(sequence)).message).toBe(UPLOAD_MESSAGES.animated);
  });

  it('refuses a multi-page TIFF', async () => {
    expect((await rejection(await multiPageTiff())).message).toBe(UPLOAD_MESSAGES.multiPage);
  });
});
