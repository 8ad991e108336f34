import { createHash } from 'node:crypto';
import { BATCH_MESSAGES } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { inspectUpload, UPLOAD_MESSAGES, type CleanImage } from '../uploads/image-inspect';
import { readArchive } from './batch-archive';
import type { BatchUpload } from './batch-multipart';

/** One checked image of a batch, ready to store. */
export interface BatchInput {
  /** The file's name (a ZIP entry's base name): names the job and its download. */
  fileName: string;
  clean: CleanImage;
}

interface Candidate {
  /** Names the file in errors: the name sent, or the entry's path inside the ZIP. */
  label: string;
  fileName: string;
  bytes: Buffer | null;
}

/** Images checked at once (each decode and re-encode takes a core). */
const CHECK_CONCURRENCY = 2;

/** A fingerprint of the uploaded files (names and bytes), part of the batch's Idempotency-Key check. */
export function uploadFingerprint(upload: BatchUpload): string {
  const hash = createHash('sha256');
  const files = upload.archive ? [upload.archive] : upload.images;
  for (const f of files) {
    hash.update(`${f.name}\0${f.bytes?.length ?? -1}\0`);
    if (f.bytes) hash.update(f.bytes);
  }
  return hash.digest('hex');
}

async function candidatesOf(upload: BatchUpload, errors: Record<string, string[]>): Promise<Candidate[]> {
  if (!upload.archive) {
    const list = upload.images.map((f) => ({ label: f.name, fileName: f.name, bytes: f.bytes }));
    for (const f of upload.images) f.bytes = null; // the candidates hold them now, until each is checked
    return list;
  }
  const zip = upload.archive.bytes;
  if (!zip) throw validationError({ archive: [BATCH_MESSAGES.tooLarge] });
  const contents = await readArchive(zip);
  upload.archive.bytes = null; // the images are out; let the ZIP go
  Object.assign(errors, contents.errors);
  return contents.images.map((i) => ({ label: i.path, fileName: i.name, bytes: i.bytes }));
}

/**
 * Every file of a batch through the same checks as a single upload (inspectUpload, plus `extraCheck`, e.g.
 * the upscaled size), before anything is stored or charged. Any bad file -> one 422 whose `errors` name each
 * bad file (ZIP entries by their path) with its reasons; otherwise the clean images in upload order.
 */
export async function checkBatchFiles(
  upload: BatchUpload,
  extraCheck?: (clean: CleanImage) => void,
): Promise<BatchInput[]> {
  const errors: Record<string, string[]> = {};
  const candidates = await candidatesOf(upload, errors);
  const refuse = (label: string, messages: string[]) => (errors[label] ??= []).push(...messages);
  const inputs: (BatchInput | null)[] = candidates.map(() => null);

  let next = 0;
  const work = async () => {
    while (next < candidates.length) {
      const index = next++;
      const c = candidates[index]!;
      if (!c.bytes) {
        refuse(c.label, [UPLOAD_MESSAGES.tooLarge]);
        continue;
      }
      try {
        const clean = await inspectUpload(c.bytes);
        extraCheck?.(clean);
        inputs[index] = { fileName: c.fileName, clean };
      } catch (err) {
        if (!(err instanceof AppError) || !err.errors) throw err;
        refuse(c.label, Object.values(err.errors).flat());
      }
      c.bytes = null; // only the clean copy is kept from here on
    }
  };
  await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, work));

  const bad = Object.keys(errors);
  if (bad.length > 0) {
    const names = `${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''}`;
    throw validationError(errors, `${BATCH_MESSAGES.badFiles(bad.length).replace(/\.$/, '')}: ${names}.`);
  }
  return inputs.filter((i): i is BatchInput => i !== null);
}
