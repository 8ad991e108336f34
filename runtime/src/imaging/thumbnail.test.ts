import sharp from 'sharp';
import { THUMBNAIL_SIDE, makeThumbnail } from './thumbnail';

describe('makeThumbnail', () => {
  it('shrinks a result to a WebP whose long side is THUMBNAIL_SIDE, keeping alpha and the aspect ratio', async () => {
    const wide = await sharp({
      create: { width: 1000, height: 500, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const thumb = await makeThumbnail(wide);
    const meta = await sharp(thumb).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['webp', THUMBNAIL_SIDE, 128, true]);
    expect(thumb.length).toBeLessThan(wide.length);
  });

  it('never enlarges a small result', async () => {
    const small = await sharp({ create: { width: 40, height: 90, channels: 3, background: '#0a0' } })
      .jpeg()
      .toBuffer();
    const meta = await sharp(await makeThumbnail(small)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 40, 90]);
  });
});
