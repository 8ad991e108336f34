import type { UploadFormat } from '@imagestudio/contracts';

/**
 * Byte-level checks on an uploaded image, before any decoder sees it: the format comes from the file's
 * signature (never its name or declared type), and the container must end where the image ends, so a
 * file that is also something else (an archive or a page appended after the image) is refused.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** TIFF's byte-order marks with the version: classic TIFF (42) and BigTIFF (43), little- and big-endian. */
const TIFF_SIGNATURES = ['49492a00', '4d4d002a', '49492b00', '4d4d002b'];

/** ISO-BMFF brands of HEIF stills: AV1-coded (AVIF) and HEVC-coded (HEIC) or generic HEIF. */
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
/** Brands of image sequences (animations) rather than stills. */
const SEQUENCE_BRANDS = new Set(['avis', 'msf1', 'hevs', 'hevm']);

/** The major and compatible brands of an ISO-BMFF file's leading `ftyp` box, or null when it has none. */
function ftypBrands(bytes: Buffer): { major: string; all: Set<string> } | null {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return null;
  const size = bytes.readUInt32BE(0);
  if (size < 16 || size > bytes.length || size > 4096) return null;
  const major = bytes.toString('latin1', 8, 12);
  const all = new Set([major]);
  for (let at = 16; at + 4 <= size; at += 4) all.add(bytes.toString('latin1', at, at + 4));
  return { major, all };
}

/**
 * The format named by the file's first bytes, or null for anything else. HEIF files are told apart by their
 * brands: AVIF by its own, HEIC by the HEVC or generic HEIF ones (the header check then reads the coding).
 */
export function sniffFormat(bytes: Buffer): UploadFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (bytes.length >= 8 && TIFF_SIGNATURES.includes(bytes.toString('hex', 0, 4))) return 'tiff';
  const brands = ftypBrands(bytes);
  if (brands) {
    if ([...brands.all].some((b) => AVIF_BRANDS.has(b))) return 'avif';
    if ([...brands.all].some((b) => HEIF_BRANDS.has(b))) return 'heic';
  }
  return null;
}

/**
 * Offset just past the last top-level box of an ISO-BMFF file (ftyp, meta, mdat...; null when a box runs past
 * the end), and whether it is an image sequence.
 */
function walkIsoBmff(bytes: Buffer): { end: number | null; animated: boolean } {
  const brands = ftypBrands(bytes);
  const animated = brands !== null && SEQUENCE_BRANDS.has(brands.major);
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1) {
      if (offset + 16 > bytes.length) return { end: null, animated };
      const large = bytes.readBigUInt64BE(offset + 8);
      if (large > BigInt(bytes.length)) return { end: null, animated };
      size = Number(large);
    } else if (size === 0) {
      size = bytes.length - offset; // the last box runs to the end of the file
    }
    if (size < 8 || offset + size > bytes.length) return { end: null, animated };
    offset += size;
  }
  return { end: offset, animated };
}

/** Offset just past the PNG's IEND chunk (null when the chunk list is broken), and whether it is an APNG. */
function walkPng(bytes: Buffer): { end: number | null; animated: boolean } {
  let offset = 8;
  let animated = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (type === 'acTL') animated = true;
    const next = offset + 12 + length;
    if (next > bytes.length) return { end: null, animated };
    if (type === 'IEND') return { end: next, animated };
    offset = next;
  }
  return { end: null, animated };
}

/** Offset just past the JPEG's end-of-image marker of the primary image (null when there is none). */
function jpegEnd(bytes: Buffer): number | null {
  let offset = 2;
  while (offset + 2 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return offset + 2;
    if (marker >= 0xd0 && marker <= 0xd7) {
      offset += 2;
      continue;
    }
    if (offset + 4 > bytes.length) return null;
    const length = bytes.readUInt16BE(offset + 2);
    offset += 2 + length;
    if (marker === 0xda) {
      // Entropy-coded data runs until a marker that is neither a stuffed 0xff00 nor a restart marker.
      while (offset + 1 < bytes.length) {
        if (bytes[offset] === 0xff) {
          const b = bytes[offset + 1]!;
          if (b !== 0x00 && !(b >= 0xd0 && b <= 0xd7) && b !== 0xff) break;
        }
        offset += 1;
      }
    }
  }
  return null;
}

export interface ContainerFacts {
  /** Bytes after the image's end (0 for a plain file); null when the end marker is missing (truncated). */
  trailingBytes: number | null;
  /** An animated PNG (APNG) or an AVIF/HEIF image sequence; animated WebP is reported by the decoder's page count. */
  animated: boolean;
}

/** Walks the container of a sniffed file and reports data after the image and APNG animation. */
export function containerFacts(bytes: Buffer, format: UploadFormat): ContainerFacts {
  if (format === 'heic' || format === 'avif') {
    const { end, animated } = walkIsoBmff(bytes);
    return { trailingBytes: end === null ? null : bytes.length - end, animated };
  }
  // A TIFF's directories and strips may sit anywhere in the file, pointed to by offsets, so there is no end to
  // find: single uploads are stored as a re-encoded copy, and multi-page files are refused from the header.
  if (format === 'tiff') return { trailingBytes: 0, animated: false };
  if (format === 'png') {
    const { end, animated } = walkPng(bytes);
    return { trailingBytes: end === null ? null : bytes.length - end, animated };
  }
  if (format === 'webp') {
    const declared = bytes.readUInt32LE(4) + 8;
    if (declared > bytes.length) return { trailingBytes: null, animated: false };
    // RIFF chunks are padded to an even size; one pad byte after an odd-sized file is legitimate.
    const trailing = bytes.length - declared;
    return { trailingBytes: trailing === 1 && bytes[declared] === 0 ? 0 : trailing, animated: false };
  }
  const end = jpegEnd(bytes);
  if (end === null) return { trailingBytes: null, animated: false };
  // Some encoders pad the file with a few zero bytes; anything else after the image is refused.
  const rest = bytes.subarray(end);
  return { trailingBytes: rest.length <= 16 && rest.every((b) => b === 0) ? 0 : rest.length, animated: false };
}
