import sharp from 'sharp';
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
