import type { UploadFormat } from '@imagestudio/contracts';

/**
 * Image sizes read from the header of files the browser may not decode (HEIC everywhere but Safari, TIFF in
 * Chrome and Firefox), so the size limits are checked before uploading, as the API checks them: without
 * decoding a pixel. Returns the upright size, or null when the header cannot be read (the API decides then).
 */
export function headerSize(bytes: Uint8Array, format: UploadFormat): { width: number; height: number } | null {
  try {
    if (format === 'tiff') return tiffSize(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (format === 'heic' || format === 'avif')
      return heifSize(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    // A RangeError from a header that points past the file: unreadable.
  }
  return null;
}

/** The first directory's ImageWidth and ImageLength (classic TIFF), turned by its Orientation tag. */
function tiffSize(view: DataView): { width: number; height: number } | null {
  const little = view.getUint16(0) === 0x4949;
  if (view.getUint16(2, little) !== 42) return null; // BigTIFF: left to the API
  const ifd = view.getUint32(4, little);
  const count = view.getUint16(ifd, little);
  let width = 0;
  let height = 0;
  let orientation = 1;
  for (let i = 0; i < count; i++) {
    const at = ifd + 2 + i * 12;
    const tag = view.getUint16(at, little);
    const type = view.getUint16(at + 2, little);
    const value = type === 3 ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    if (tag === 256) width = value;
    else if (tag === 257) height = value;
    else if (tag === 274) orientation = value;
  }
  if (!width || !height) return null;
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}

interface Box {
  type: string;
  start: number;
  end: number;
}

/** The ISO-BMFF boxes between two offsets. */
function boxes(view: DataView, start: number, end: number): Box[] {
  const out: Box[] = [];
  for (let at = start; at + 8 <= end;) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    const type = String.fromCharCode(
      view.getUint8(at + 4),
      view.getUint8(at + 5),
      view.getUint8(at + 6),
      view.getUint8(at + 7),
    );
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

/**
 * The primary item's size in a HEIF file: `meta` -> `pitm` names the item, `iprp` -> `ipma` lists its
 * properties, `ipco` holds them; `ispe` is the coded size and `irot` a quarter turn that swaps it.
 */
function heifSize(view: DataView): { width: number; height: number } | null {
  const meta = boxes(view, 0, view.byteLength).find((b) => b.type === 'meta');
  if (!meta) return null;
  const children = boxes(view, meta.start + 4, meta.end); // meta is a full box: version and flags first
  const pitm = children.find((b) => b.type === 'pitm');
  const iprp = children.find((b) => b.type === 'iprp');
  if (!pitm || !iprp) return null;
  const primary = view.getUint8(pitm.start) === 0 ? view.getUint16(pitm.start + 4) : view.getUint32(pitm.start + 4);
  const inner = boxes(view, iprp.start, iprp.end);
  const ipco = inner.find((b) => b.type === 'ipco');
  const ipma = inner.find((b) => b.type === 'ipma');
  if (!ipco || !ipma) return null;
  const properties = boxes(view, ipco.start, ipco.end);
  const indexes = associations(view, ipma, primary);
  let size: { width: number; height: number } | null = null;
  let turned = false;
  for (const index of indexes) {
    const p = properties[index - 1];
    if (p?.type === 'ispe') size = { width: view.getUint32(p.start + 4), height: view.getUint32(p.start + 8) };
    if (p?.type === 'irot') turned = (view.getUint8(p.start) & 3) % 2 === 1;
  }
  if (!size?.width || !size.height) return null;
  return turned ? { width: size.height, height: size.width } : size;
}

/** The property indexes (1-based) the `ipma` box associates with one item. */
function associations(view: DataView, ipma: Box, item: number): number[] {
  const version = view.getUint8(ipma.start);
  const wideIndexes = (view.getUint8(ipma.start + 3) & 1) === 1;
  const entries = view.getUint32(ipma.start + 4);
  let at = ipma.start + 8;
  for (let e = 0; e < entries; e++) {
    const id = version < 1 ? view.getUint16(at) : view.getUint32(at);
    at += version < 1 ? 2 : 4;
    const count = view.getUint8(at);
    at += 1;
    const found: number[] = [];
    for (let i = 0; i < count; i++) {
      found.push(wideIndexes ? view.getUint16(at) & 0x7fff : view.getUint8(at) & 0x7f);
      at += wideIndexes ? 2 : 1;
    }
    if (id === item) return found;
  }
  return [];
}
