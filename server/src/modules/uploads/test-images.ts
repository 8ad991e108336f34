import zlib from 'node:zlib';
import sharp from 'sharp';
import { heifEnc } from '@imagestudio/runtime/testing';

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

/** A photo-like image in a phone or camera format: HEIC (HEVC) and AVIF through heif-enc, TIFF through sharp. */
export async function phoneFormatImage(format: 'heic' | 'avif' | 'tiff', width = 64, height = 48): Promise<Buffer> {
  const jpeg = await solidImage('jpeg', width, height);
  if (format === 'tiff') return sharp(jpeg).tiff({ compression: 'lzw' }).toBuffer();
  return heifEnc(jpeg, { avif: format === 'avif', quality: 80 });
}

/** A JPEG in Display P3 (saturated red, which sRGB would change) carrying GPS EXIF. */
export async function p3JpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 230, g: 30, b: 20 } } })
    .withIccProfile('p3')
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .withExif({ IFD0: { Make: 'SecretCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1' } })
    .toBuffer();
}

/**
 * A TIFF bomb: a header declaring `side` x `side` 1-bit pixels in one deflate strip of a few bytes (the
 * header alone must refuse it; nothing here is decodable).
 */
export function pixelBombTiff(side = 30_000): Buffer {
  const tags: [number, number, number][] = [
    [256, 4, side], // ImageWidth (LONG)
    [257, 4, side], // ImageLength
    [258, 3, 1], // BitsPerSample (SHORT)
    [259, 3, 8], // Compression: deflate
    [262, 3, 1], // Photometric: black is zero
    [273, 4, 0], // StripOffsets, filled in below
    [277, 3, 1], // SamplesPerPixel
    [278, 4, side], // RowsPerStrip
    [279, 4, 16], // StripByteCounts
  ];
  const ifdOffset = 8;
  const ifdSize = 2 + tags.length * 12 + 4;
  const dataOffset = ifdOffset + ifdSize;
  const out = Buffer.alloc(dataOffset + 16);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdOffset, 4);
  out.writeUInt16LE(tags.length, ifdOffset);
  tags.forEach(([tag, type, value], i) => {
    const at = ifdOffset + 2 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    if (type === 3) out.writeUInt16LE(value, at + 8);
    else out.writeUInt32LE(tag === 273 ? dataOffset : value, at + 8);
  });
  return out;
}

/** A HEIC whose image-size property (`ispe`) is rewritten to claim `side` x `side` pixels. */
export async function pixelBombHeic(side = 20_000): Promise<Buffer> {
  const heic = Buffer.from(await phoneFormatImage('heic', 64, 48));
  for (let at = heic.indexOf('ispe'); at >= 0; at = heic.indexOf('ispe', at + 4)) {
    heic.writeUInt32BE(side, at + 8);
    heic.writeUInt32BE(side, at + 12);
  }
  return heic;
}

/** A TIFF holding two pages. */
export async function multiPageTiff(): Promise<Buffer> {
  const page = (color: string) =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: color } })
      .png()
      .toBuffer();
  return sharp([await page('#ff0000'), await page('#00ff00')], { join: { animated: true } })
    .tiff()
    .toBuffer();
}
