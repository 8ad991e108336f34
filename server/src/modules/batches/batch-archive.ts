import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { BATCH_FIELDS, BATCH_LIMITS, BATCH_MESSAGES } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { UPLOAD_MESSAGES, type UploadSession } from '../uploads';

/** One image found in the archive, inflated into the upload's temporary folder. */
export interface ArchiveImage {
  /** The entry's path inside the archive (names it in errors). */
  path: string;
  /** Its base name (names the job and the download). */
  name: string;
  /** Where its inflated bytes are. */
  file: string;
}

export interface ArchiveContents {
  images: ArchiveImage[];
  /** Entry path -> why it cannot be used. */
  errors: Record<string, string[]>;
}

/** An entry that passed the central directory's checks, still compressed. */
interface ListedEntry {
  path: string;
  entry: yauzl.Entry;
}

/** An archive whose central directory was read and checked, nothing inflated yet. */
export interface ArchiveListing {
  zipfile: yauzl.ZipFile;
  entries: ListedEntry[];
  /** Entry path -> why it cannot be used (decided from the central directory alone). */
  errors: Record<string, string[]>;
}

export const ARCHIVE_MESSAGES = {
  overlapping: 'The archive is malformed: two of its entries share the same data.',
} as const;

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

/** The extensions of the images a batch takes; an entry with another extension (notes.txt) is skipped unread. */
const IMAGE_EXTENSIONS = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.jpe',
  '.jfif',
  '.webp',
  '.avif',
  '.tif',
  '.tiff',
  '.heic',
  '.heif',
]);

/** An entry whose name says it is something else than an image; one without an extension is checked by its bytes. */
function namedNotImage(entryPath: string): boolean {
  const ext = path.posix.extname(entryPath).toLowerCase();
  return ext !== '' && !IMAGE_EXTENSIONS.has(ext);
}

/** Names yauzl's own check refuses (absolute, drive letters, backslashes, `..`), plus control characters. */
function unsafePath(entryPath: string): boolean {
  // eslint-disable-next-line no-control-regex
  return yauzl.validateFileName(entryPath) !== null || /[\x00-\x1f]/.test(entryPath);
}

/** Size of a local file header before its name and extra field. */
const LOCAL_HEADER_BYTES = 30;

/**
 * True when two entries' data overlap: each entry spans at least its local header, its name (as the central
 * directory gives it) and its compressed data from its offset. A ZIP whose records point into the same
 * bytes expands one block many times over for the price of one (a "zip bomb" without a suspicious ratio).
 */
function overlapping(entries: yauzl.Entry[]): boolean {
  const spans = entries
    .map((e) => {
      const start = e.relativeOffsetOfLocalHeader;
      return [start, start + LOCAL_HEADER_BYTES + e.fileNameLength + e.compressedSize] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) return true;
  return false;
}

const archiveError = (message: string) => validationError({ [BATCH_FIELDS.archive]: [message] });

/**
 * Opens an uploaded ZIP (a file of at most BATCH_LIMITS.maxTotalBytes) with yauzl and checks its central
 * directory, inflating nothing. Refused as a whole (422 on `archive`): an unreadable ZIP, too many entries,
 * entries that overlap one another, more than BATCH_LIMITS.archiveMaxUncompressedBytes once expanded, more
 * images than a batch takes, or none. Left out per entry (the batch skips them and lists why): paths that lead
 * outside the archive, archives inside it (by name), files named as something else than an image (notes.txt),
 * encrypted entries, entries that expand more than BATCH_LIMITS.archiveMaxRatio times, and entries over the
 * single-upload limit. The number of entries left is what the batch will cost at most, so it can be checked
 * against the balance before anything is inflated.
 */
export async function listArchive(zipPath: string): Promise<ArchiveListing> {
  let zipfile: yauzl.ZipFile;
  try {
    zipfile = await yauzl.openPromise(zipPath, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch {
    throw archiveError(BATCH_MESSAGES.archiveUnreadable);
  }
  if (zipfile.entryCount > BATCH_LIMITS.archiveMaxEntries) {
    zipfile.close();
    throw archiveError(BATCH_MESSAGES.archiveTooManyEntries);
  }

  const all: yauzl.Entry[] = [];
  const entries: ListedEntry[] = [];
  const errors: Record<string, string[]> = {};
  const refuse = (entryPath: string, message: string) => (errors[entryPath] ??= []).push(message);
  let declaredTotal = 0;
  try {
    for await (const entry of zipfile.eachEntry()) {
      all.push(entry);
      const raw = entry.fileNameRaw;
      const entryPath = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      if (entryPath.endsWith('/') || isSystemJunk(entryPath)) continue;
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > BATCH_LIMITS.archiveMaxUncompressedBytes) throw archiveError(BATCH_MESSAGES.archiveTooLarge);
      if (unsafePath(entryPath)) refuse(entryPath, BATCH_MESSAGES.entryUnsafePath);
      else if (isNestedArchive(entryPath)) refuse(entryPath, BATCH_MESSAGES.entryNested);
      else if (namedNotImage(entryPath)) refuse(entryPath, BATCH_MESSAGES.notAnImage);
      else if (entries.length >= BATCH_LIMITS.maxItems) throw archiveError(BATCH_MESSAGES.tooManyFiles);
      else if (entry.isEncrypted()) refuse(entryPath, BATCH_MESSAGES.entryEncrypted);
      else if (!entry.canDecodeFileData()) refuse(entryPath, BATCH_MESSAGES.archiveUnreadable);
      else if (entry.uncompressedSize > BATCH_LIMITS.archiveMaxRatio * Math.max(entry.compressedSize, 1))
        refuse(entryPath, BATCH_MESSAGES.entryRatio);
      else if (entry.uncompressedSize > BATCH_LIMITS.maxItemBytes) refuse(entryPath, UPLOAD_MESSAGES.tooLarge);
      else entries.push({ path: entryPath, entry });
    }
    if (overlapping(all)) throw archiveError(ARCHIVE_MESSAGES.overlapping);
  } catch (err) {
    zipfile.close();
    if (err instanceof AppError) throw err;
    throw archiveError(BATCH_MESSAGES.archiveUnreadable);
  }
  if (entries.length === 0 && Object.keys(errors).length === 0) {
    zipfile.close();
    throw archiveError(BATCH_MESSAGES.archiveEmpty);
  }
  return { zipfile, entries, errors };
}

/**
 * Inflates one entry into `file`, never past its declared size (yauzl checks it too), calling `reserve` for
 * every chunk before it is written; returns the entry's first bytes.
 */
async function inflateEntry(
  stream: Readable,
  file: string,
  max: number,
  reserve: (bytes: number) => void,
): Promise<Buffer> {
  let size = 0;
  let head = Buffer.alloc(0);
  // Destroyed mid-way, yauzl's inflater may still write into the entry's stream once: that error is expected.
  stream.on('error', () => undefined);
  const out = fs.createWriteStream(file);
  let writeError: Error | null = null;
  // Also catches a write still in flight when the file is dropped below.
  out.on('error', (err) => (writeError ??= err));
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new Error('entry larger than declared');
      reserve(chunk.length);
      if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8 - head.length)]);
      if (writeError) throw writeError;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    stream.destroy();
    out.destroy();
    throw err;
  }
  return head;
}

/**
 * Inflates the listed entries one by one into the upload's temporary folder, each chunk counted against the
 * upload's disk reservation as it is inflated (a full budget ends the upload with 503); refuses entries that
 * turn out to be archives by their first bytes, or that cannot be inflated. Closes the archive.
 */
export async function extractArchive(listing: ArchiveListing, session: UploadSession): Promise<ArchiveContents> {
  const { zipfile, entries } = listing;
  const images: ArchiveImage[] = [];
  const errors: Record<string, string[]> = { ...listing.errors };
  const refuse = (entryPath: string, message: string) => (errors[entryPath] ??= []).push(message);
  const reserve = (bytes: number) => {
    if (!session.reserve(bytes)) throw session.budgetFull('archive');
  };
  try {
    for (const { path: entryPath, entry } of entries) {
      const file = await session.tempPath('.entry');
      let head: Buffer;
      try {
        head = await inflateEntry(await zipfile.openReadStreamPromise(entry), file, entry.uncompressedSize, reserve);
      } catch (err) {
        if (err instanceof AppError) throw err;
        refuse(entryPath, BATCH_MESSAGES.archiveUnreadable);
        continue;
      }
      if (isNestedArchive(entryPath, head)) {
        refuse(entryPath, BATCH_MESSAGES.entryNested);
        continue;
      }
      images.push({ path: entryPath, name: path.posix.basename(entryPath), file });
    }
  } finally {
    zipfile.close();
  }
  return { images, errors };
}
