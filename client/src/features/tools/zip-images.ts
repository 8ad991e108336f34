/** Image files a batch takes, by name (the server checks the bytes of each). */
const IMAGE_NAME = /\.(jpe?g|png|webp|avif|tiff?|heic|heif)$/i;

/** True for a ZIP chosen as a batch (browsers report ZIPs under several types, or none). */
export function isZipFile(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
}

/** True for an entry name the server would take as an image: not a folder, not hidden, not macOS metadata. */
export function isImageEntry(name: string): boolean {
  if (name.endsWith('/') || name.startsWith('__MACOSX/')) return false;
  const base = name.split('/').pop() ?? '';
  return !base.startsWith('.') && IMAGE_NAME.test(base);
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
/** End-of-central-directory record (22 bytes) plus the longest comment a ZIP may carry. */
const TAIL_BYTES = 22 + 0xffff;

/**
 * The names of a ZIP's image entries, read from its central directory only (the end of the file), so a
 * 200 MB archive is never read whole in the browser. Null when the file is not a ZIP this can read
 * (ZIP64, damaged): the page then quotes the price per image and the server counts.
 */
export async function zipImageNames(file: Blob): Promise<string[] | null> {
  try {
    const tailStart = Math.max(0, file.size - TAIL_BYTES);
    const tail = new DataView(await file.slice(tailStart).arrayBuffer());
    let eocd = -1;
    for (let i = tail.byteLength - 22; i >= 0; i -= 1) {
      if (tail.getUint32(i, true) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return null;
    const entries = tail.getUint16(eocd + 10, true);
    const size = tail.getUint32(eocd + 12, true);
    const offset = tail.getUint32(eocd + 16, true);
    if (entries === 0xffff || offset === 0xffffffff || offset + size > file.size) return null;
    const dir = new DataView(await file.slice(offset, offset + size).arrayBuffer());
    const decoder = new TextDecoder();
    const names: string[] = [];
    let at = 0;
    for (let n = 0; n < entries; n += 1) {
      if (at + 46 > dir.byteLength || dir.getUint32(at, true) !== CENTRAL_SIGNATURE) return null;
      const nameLength = dir.getUint16(at + 28, true);
      const extraLength = dir.getUint16(at + 30, true);
      const commentLength = dir.getUint16(at + 32, true);
      const name = decoder.decode(new Uint8Array(dir.buffer, dir.byteOffset + at + 46, nameLength));
      if (isImageEntry(name)) names.push(name);
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  } catch {
    return null;
  }
}
