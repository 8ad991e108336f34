import sharp from 'sharp';
import { AppError } from '../../lib/errors';
import { checkUpscaleOutput, inspectUpload, UPLOAD_MESSAGES } from './image-inspect';
import { animatedPng, animatedWebp, gifImage, jpegWithExif, pixelBombPng, solidImage, svgImage } from './test-images';

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
