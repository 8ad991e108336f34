import zlib from 'node:zlib';

/**
 * XMP in PNG the way the XMP specification (part 3) asks for it: one uncompressed `iTXt` chunk with the keyword
 * `XML:com.adobe.xmp`, before the image data. libvips writes XMP as a compressed `zTXt` chunk, which many
 * readers (exiftool's XMP group, browsers' and platforms' provenance checks) do not look into.
 */

const SIGNATURE_BYTES = 8;
const KEYWORD = 'XML:com.adobe.xmp';

/** Inserts the XMP packet as an iTXt chunk right after IHDR (the first chunk) of an encoded PNG. */
export function insertPngXmp(png: Buffer, xmp: string): Buffer {
  // keyword NUL, compression flag 0 and method 0, empty language tag NUL, empty translated keyword NUL, UTF-8 text
  const data = Buffer.concat([Buffer.from(`${KEYWORD}\0\0\0\0\0`, 'latin1'), Buffer.from(xmp, 'utf8')]);
  return insertPngChunk(png, 'iTXt', data);
}

/** Inserts one chunk right after IHDR (the first chunk) of an encoded PNG. */
export function insertPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
  const ihdrLength = png.readUInt32BE(SIGNATURE_BYTES);
  if (png.toString('latin1', SIGNATURE_BYTES + 4, SIGNATURE_BYTES + 8) !== 'IHDR')
    throw new Error('not a PNG: IHDR is not the first chunk');
  const afterIhdr = SIGNATURE_BYTES + 12 + ihdrLength;
  return Buffer.concat([png.subarray(0, afterIhdr), chunk(type, data), png.subarray(afterIhdr)]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** Every chunk of a PNG as type and data, in order (for checks). */
export function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = SIGNATURE_BYTES; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}
