import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { BATCH_MESSAGES, type BatchSkipped } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { checkImageHeader, UPLOAD_MESSAGES, type ImageFacts } from '../uploads/image-inspect';
import { UPLOAD_MESSAGES_FLOW } from '../uploads/upload-budget';
import { extractArchive, listArchive, type ArchiveListing } from './batch-archive';
import type { BatchUpload } from './batch-multipart';

/** One checked image of a batch, ready to store: its header's facts and where its bytes are. */
export interface BatchInput {
  /** The file's name (a ZIP entry's base name): names the job and its download. */
  fileName: string;
  clean: ImageFacts & { path: string };
}

interface Candidate {
  /** Names the file in errors: the name sent, or the entry's path inside the ZIP. */
  label: string;
  fileName: string;
  path: string | null;
}

/** Images checked at once (each reads one file of at most 20 MB). */
const CHECK_CONCURRENCY = 2;

/** A fingerprint of the uploaded files (names and bytes), part of the batch's Idempotency-Key check. */
export function uploadFingerprint(upload: BatchUpload): string {
  const hash = createHash('sha256');
  const files = upload.archive ? [upload.archive] : upload.images;
  for (const f of files) {
    hash.update(`${f.name}\0${f.sha256 ? f.size : -1}\0`);
    if (f.sha256) hash.update(f.sha256);
  }
  // A background image for every item is part of the request too.
  for (const [field, f] of Object.entries(upload.files ?? {})) hash.update(`\0${field}\0${f.size}\0${f.sha256 ?? ''}`);
  return hash.digest('hex');
}

/** The bytes of a checked input, read from its temporary file when they are stored. */
export function inputBytes(input: BatchInput): Promise<Buffer> {
  return fs.promises.readFile(input.clean.path);
}

/** Archives listed by batchItemCount, so checkBatchFiles does not read their central directory twice. */
const listings = new WeakMap<BatchUpload, ArchiveListing>();

/**
 * How many items the batch will have, known before anything is inflated or decoded: the files sent, or the
 * ZIP's entries that pass its central directory's checks. The caller checks the balance for that many. Opening
 * an archive claims the user's one archive check (429 with Retry-After while another is running); it is given
 * back when checkBatchFiles ends or the response closes.
 */
export async function batchItemCount(upload: BatchUpload): Promise<number> {
  if (!upload.archive) return upload.images.length;
  const listing = listings.get(upload) ?? (await openArchive(upload));
  return listing.entries.length;
}

async function openArchive(upload: BatchUpload): Promise<ArchiveListing> {
  const zip = upload.archive?.path;
  if (!zip) throw validationError({ archive: [BATCH_MESSAGES.tooLarge] });
  if (!upload.session.claimArchive()) {
    upload.session.budget.refused('archive_busy', { userId: upload.session.userId });
    throw new AppError('rate_limited', UPLOAD_MESSAGES_FLOW.archiveBusy, { headers: { 'Retry-After': '10' } });
  }
  try {
    const listing = await listArchive(zip);
    listings.set(upload, listing);
    upload.session.onClose(() => {
      if (listing.zipfile.isOpen) listing.zipfile.close();
    });
    return listing;
  } catch (err) {
    upload.session.releaseArchive();
    throw err;
  }
}

async function candidatesOf(upload: BatchUpload, errors: Record<string, string[]>): Promise<Candidate[]> {
  if (!upload.archive) return upload.images.map((f) => ({ label: f.name, fileName: f.name, path: f.path }));
  const listing = listings.get(upload) ?? (await openArchive(upload));
  try {
    const contents = await extractArchive(listing, upload.session);
    Object.assign(errors, contents.errors);
    return contents.images.map((i) => ({ label: i.path, fileName: i.name, path: i.file }));
  } finally {
    listings.delete(upload);
    upload.session.releaseArchive();
  }
}

/** The checked images of a batch, and the ZIP entries left out of it with their reasons. */
export interface CheckedBatchFiles {
  inputs: BatchInput[];
  skipped: BatchSkipped[];
}

/**
 * Every file of a batch through the byte and header checks of a single upload (checkImageHeader: type from
 * the bytes, container end, animation, 25 MP; plus `extraCheck`, e.g. the upscaled size), before anything is
 * stored or charged. Nothing is decoded here: the worker decodes each image when it runs, and an image whose
 * data turns out to be damaged fails there and is refunded. Files chosen one by one: any bad file -> one 422
 * whose `errors` name each bad file with its reasons (the customer chose each and can remove it). A ZIP's bad
 * entries (a notes.txt, a fake.png) are skipped and listed instead, never charged; only a ZIP with no image
 * left is a 422, naming every entry. The checked images come in upload order.
 */
export async function checkBatchFiles(
  upload: BatchUpload,
  extraCheck?: (clean: ImageFacts) => void,
): Promise<CheckedBatchFiles> {
  const errors: Record<string, string[]> = {};
  const candidates = await candidatesOf(upload, errors);
  // Each file's reasons are kept by its place, so the reply names bad files in upload order.
  const reasons: string[][] = candidates.map(() => []);
  const inputs: (BatchInput | null)[] = candidates.map(() => null);

  let next = 0;
  const work = async () => {
    while (next < candidates.length) {
      const index = next++;
      const c = candidates[index]!;
      if (!c.path) {
        reasons[index]!.push(UPLOAD_MESSAGES.tooLarge);
        continue;
      }
      try {
        const facts = await checkImageHeader(await fs.promises.readFile(c.path));
        extraCheck?.(facts);
        inputs[index] = { fileName: c.fileName, clean: { ...facts, path: c.path } };
      } catch (err) {
        if (!(err instanceof AppError) || !err.errors) throw err;
        reasons[index]!.push(...Object.values(err.errors).flat());
      }
    }
  };
  await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, work));
  candidates.forEach((c, i) => {
    if (reasons[i]!.length > 0) (errors[c.label] ??= []).push(...reasons[i]!);
  });

  const checked = inputs.filter((i): i is BatchInput => i !== null);
  const bad = Object.keys(errors);
  if (upload.archive && checked.length > 0)
    return { inputs: checked, skipped: bad.map((name) => ({ file_name: name, reasons: errors[name]! })) };
  if (bad.length > 0) {
    const names = `${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''}`;
    throw validationError(errors, `${BATCH_MESSAGES.badFiles(bad.length).replace(/\.$/, '')}: ${names}.`);
  }
  return { inputs: checked, skipped: [] };
}
