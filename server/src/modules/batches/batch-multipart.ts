import type { Request, Response } from 'express';
import { BATCH_FIELDS, BATCH_LIMITS, BATCH_MESSAGES } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { readForm, type ReceivedFile, uploadSessionOf, type UploadSession } from '../uploads';

/** One file of the `images` field (or the ZIP of `archive`), on disk until the response closes. */
export interface BatchFile {
  /** The name as the browser sent it (untrusted: used only to name errors and downloads). */
  name: string;
  /** Where its bytes are; null when it was larger than an upload may be (its bytes were skipped, not kept). */
  path: string | null;
  size: number;
  /** SHA-256 of its bytes (hex; null when skipped), for the Idempotency-Key fingerprint. */
  sha256: string | null;
}

export interface BatchUpload {
  fields: Record<string, string>;
  images: BatchFile[];
  /** The ZIP of the `archive` field, if one was sent. */
  archive: BatchFile | null;
  /** The request's upload: its disk reservation and temporary folder (ZIP entries are inflated into it). */
  session: UploadSession;
}

export const BATCH_FORM_MESSAGES = {
  wrongField: (got: string) =>
    `Send the images in the field "${BATCH_FIELDS.images}" or one ZIP in "${BATCH_FIELDS.archive}", not "${got}".`,
  notMultipart: 'Send the images as multipart/form-data.',
} as const;

const toBatchFile = (f: ReceivedFile, index: number): BatchFile => ({
  name: f.name || `file-${index + 1}`,
  path: f.path,
  size: f.size,
  sha256: f.sha256,
});

/**
 * Reads a batch upload with the same strict reader as a single tool call (readForm): the text fields, up to
 * BATCH_LIMITS.maxItems files in `images` or one ZIP in `archive`. All files together may be at most
 * BATCH_LIMITS.maxTotalBytes (413 as soon as they pass it, or before reading when Content-Length says so). An
 * image over the single-upload limit is not refused here: its bytes are skipped and it is reported with the
 * other bad files, so the user learns about every bad file at once.
 */
export async function readBatchMultipart(req: Request, res: Response): Promise<BatchUpload> {
  const form = await readForm(req, res, {
    files: {
      [BATCH_FIELDS.images]: {
        maxCount: BATCH_LIMITS.maxItems,
        tooMany: { [BATCH_FIELDS.images]: [BATCH_MESSAGES.tooManyFiles] },
        maxBytes: BATCH_LIMITS.maxItemBytes,
        oversize: 'skip',
      },
      [BATCH_FIELDS.archive]: {
        maxCount: 1,
        tooMany: { [BATCH_FIELDS.archive]: [BATCH_MESSAGES.oneArchive] },
        maxBytes: BATCH_LIMITS.maxTotalBytes,
        oversize: 'refuse',
      },
    },
    maxTotalBytes: BATCH_LIMITS.maxTotalBytes,
    tooLarge: BATCH_MESSAGES.tooLarge,
    wrongField: (got) => ({ [BATCH_FIELDS.images]: [BATCH_FORM_MESSAGES.wrongField(got)] }),
    notMultipart: { [BATCH_FIELDS.images]: [BATCH_FORM_MESSAGES.notMultipart] },
  });
  const files = form.files.map(toBatchFile);
  const images = files.filter((_, i) => form.files[i]!.field === BATCH_FIELDS.images);
  const archives = files.filter((_, i) => form.files[i]!.field === BATCH_FIELDS.archive);
  if (images.length > 0 && archives.length > 0)
    throw validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.bothKinds] });
  if (images.length === 0 && archives.length === 0)
    throw validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.noFiles] });
  return { fields: form.fields, images, archive: archives[0] ?? null, session: uploadSessionOf(req) };
}
