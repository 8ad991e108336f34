import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { BATCH_FIELDS, BATCH_LIMITS, BATCH_MESSAGES } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { UPLOAD_MESSAGES } from '../uploads/image-inspect';

/** One image found in the archive. */
export interface ArchiveImage {
  /** The entry's path inside the archive (names it in errors). */
  path: string;
  /** Its base name (names the job and the download). */
  name: string;
  bytes: Buffer;
}

export interface ArchiveContents {
  images: ArchiveImage[];
  /** Entry path -> why it cannot be used. */
  errors: Record<string, string[]>;
}

/** Files other tools leave in archives, skipped rather than refused (macOS resource forks, Finder and Explorer files). */
function isSystemJunk(entryPath: string): boolean {
  const parts = entryPath.split('/');
  const leaf = parts[parts.length - 1] ?? '';
  return (
    parts.some((p) => p === '__MACOSX') ||
    leaf.startsWith('.') ||
    leaf.toLowerCase() === 'thumbs.db' ||
    leaf.toLowerCase() === 'desktop.ini'
  );
}

const ARCHIVE_EXTENSIONS = new Set(['.zip', '.7z', '.rar', '.tar', '.gz', '.tgz', '.bz2', '.xz', '.jar', '.cbz']);
const ZIP_SIGNATURES = [
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.from('PK\x05\x06', 'latin1'),
  Buffer.from([0x1f, 0x8b]),
  Buffer.from('7z\xbc\xaf\x27\x1c', 'latin1'),
  Buffer.from('Rar!', 'latin1'),
];

/** An archive inside the archive, by its name or its first bytes. */
function isNestedArchive(entryPath: string, head?: Buffer): boolean {
  if (ARCHIVE_EXTENSIONS.has(path.posix.extname(entryPath).toLowerCase())) return true;
  return (
    head !== undefined &&
    ZIP_SIGNATURES.some((sig) => head.length >= sig.length && head.subarray(0, sig.length).equals(sig))
  );
}

/** Names yauzl's own check refuses (absolute, drive letters, backslashes, `..`), plus control characters. */
function unsafePath(entryPath: string): boolean {
  // eslint-disable-next-line no-control-regex
  return yauzl.validateFileName(entryPath) !== null || /[\x00-\x1f]/.test(entryPath);
}

/** Reads one entry's stream, never keeping more than `max` bytes (yauzl also checks the declared size). */
async function readEntry(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new Error('entry larger than declared');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const archiveError = (message: string) => validationError({ [BATCH_FIELDS.archive]: [message] });

/**
 * Opens an uploaded ZIP (already in memory, at most BATCH_LIMITS.maxTotalBytes) with yauzl and returns its
 * images. Refused as a whole (422 on `archive`): an unreadable ZIP, too many entries, more than
 * BATCH_LIMITS.archiveMaxUncompressedBytes once expanded (from the central directory, before inflating
 * anything), more images than a batch takes, or none. Refused per entry (reported with the other bad
 * files): paths that lead outside the archive, archives inside it, encrypted entries, entries that expand
 * more than BATCH_LIMITS.archiveMaxRatio times, and entries over the single-upload limit. Inflation is
 * capped at each entry's declared size, so a ZIP that lies about its sizes cannot expand further.
 */
export async function readArchive(zip: Buffer): Promise<ArchiveContents> {
  let zipfile: yauzl.ZipFile;
  try {
    zipfile = await yauzl.fromBufferPromise(zip, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: true,
    });
  } catch {
    throw archiveError(BATCH_MESSAGES.archiveUnreadable);
  }
  if (zipfile.entryCount > BATCH_LIMITS.archiveMaxEntries) {
    zipfile.close();
    throw archiveError(BATCH_MESSAGES.archiveTooManyEntries);
  }

  const images: ArchiveImage[] = [];
  const errors: Record<string, string[]> = {};
  const refuse = (entryPath: string, message: string) => (errors[entryPath] ??= []).push(message);
  let declaredTotal = 0;
  try {
    for await (const entry of zipfile.eachEntry()) {
      const raw = entry.fileNameRaw;
      const entryPath = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      if (entryPath.endsWith('/') || isSystemJunk(entryPath)) continue;
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > BATCH_LIMITS.archiveMaxUncompressedBytes) throw archiveError(BATCH_MESSAGES.archiveTooLarge);
      if (images.length + Object.keys(errors).length >= BATCH_LIMITS.maxItems)
        throw archiveError(BATCH_MESSAGES.tooManyFiles);

      if (unsafePath(entryPath)) {
        refuse(entryPath, BATCH_MESSAGES.entryUnsafePath);
        continue;
      }
      if (isNestedArchive(entryPath)) {
        refuse(entryPath, BATCH_MESSAGES.entryNested);
        continue;
      }
      if (entry.isEncrypted()) {
        refuse(entryPath, BATCH_MESSAGES.entryEncrypted);
        continue;
      }
      if (!entry.canDecodeFileData()) {
        refuse(entryPath, BATCH_MESSAGES.archiveUnreadable);
        continue;
      }
      if (entry.uncompressedSize > BATCH_LIMITS.archiveMaxRatio * Math.max(entry.compressedSize, 1)) {
        refuse(entryPath, BATCH_MESSAGES.entryRatio);
        continue;
      }
      if (entry.uncompressedSize > BATCH_LIMITS.maxItemBytes) {
        refuse(entryPath, UPLOAD_MESSAGES.tooLarge);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await readEntry(await zipfile.openReadStreamPromise(entry), entry.uncompressedSize);
      } catch {
        refuse(entryPath, BATCH_MESSAGES.archiveUnreadable);
        continue;
      }
      if (isNestedArchive(entryPath, bytes.subarray(0, 8))) {
        refuse(entryPath, BATCH_MESSAGES.entryNested);
        continue;
      }
      images.push({ path: entryPath, name: path.posix.basename(entryPath), bytes });
    }
  } catch (err) {
    zipfile.close();
    if (err instanceof AppError) throw err;
    throw archiveError(BATCH_MESSAGES.archiveUnreadable);
  }
  if (images.length === 0 && Object.keys(errors).length === 0) throw archiveError(BATCH_MESSAGES.archiveEmpty);
  return { images, errors };
}
