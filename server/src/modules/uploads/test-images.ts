import zlib from 'node:zlib';
import sharp from 'sharp';

/** Test support: real images and hostile files built on the fly (no binary fixtures in the repository). */

export async function solidImage(format: 'png' | 'jpeg' | 'webp', width = 64, height = 48): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  return base.toFormat(format).toBuffer();
}

/** A JPEG carrying EXIF with a camera make and GPS-like tags, to prove metadata is stripped. */
export async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'X1', Copyright: 'private-owner' } })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A decompression bomb: a 1-bit grey PNG of `side` x `side` pixels whose rows are all zero, so a few
 * tens of kilobytes claim hundreds of megapixels.
 */
export function pixelBombPng(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Math.ceil(side / 8) + 1;
  const idat = zlib.deflateSync(Buffer.alloc(row * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A two-frame animated WebP. */
export async function animatedWebp(): Promise<Buffer> {
  const frame = (color: string) =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: color } })
      .png()
      .toBuffer();
  return sharp([await frame('#ff0000'), await frame('#00ff00')], { join: { animated: true } })
    .webp({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

/** An APNG: a valid PNG with an acTL chunk announcing animation. */
export async function animatedPng(): Promise<Buffer> {
  const png = await solidImage('png', 8, 8);
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0);
  return Buffer.concat([png.subarray(0, 33), pngChunk('acTL', actl), png.subarray(33)]);
}

export async function gifImage(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .gif()
    .toBuffer();
}

export const svgImage = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
