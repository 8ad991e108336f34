import type { Request, Response } from 'express';
import { BATCH_FIELDS, BATCH_LIMITS, BATCH_MESSAGES, LIMITS, TOOLS } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { MULTIPART_MESSAGES, readForm, type ReceivedFile } from '../uploads/multipart';
import { uploadSessionOf, type UploadSession } from '../uploads/upload-budget';

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
  /** The further file parts batchable tools take (a background image for every item), by field. */
  files: Record<string, BatchFile>;
  /** The request's upload: its disk reservation and temporary folder (ZIP entries are inflated into it). */
  session: UploadSession;
}

export const BATCH_FORM_MESSAGES = {
  wrongField: (got: string) =>
    `Send the images in the field "${BATCH_FIELDS.images}" or one ZIP in "${BATCH_FIELDS.archive}", not "${got}".`,
  notMultipart: 'Send the images as multipart/form-data.',
} as const;

/** The further file fields of the batchable tools (contract `fileFields`): one file each, at most an upload's size. */
export const BATCH_FILE_FIELDS = [
  ...new Set(
    TOOLS.filter((t) => t.batchable).flatMap((t): readonly string[] => ('fileFields' in t ? t.fileFields : [])),
  ),
];

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
      ...Object.fromEntries(
        BATCH_FILE_FIELDS.map((field) => [
          field,
          {
            maxCount: 1,
            tooMany: { [field]: [MULTIPART_MESSAGES.oneImage] },
            maxBytes: LIMITS.uploadMaxBytes,
            oversize: 'refuse' as const,
          },
        ]),
      ),
    },
    maxTotalBytes: BATCH_LIMITS.maxTotalBytes,
    tooLarge: BATCH_MESSAGES.tooLarge,
    wrongField: (got) => ({ [BATCH_FIELDS.images]: [BATCH_FORM_MESSAGES.wrongField(got)] }),
    notMultipart: { [BATCH_FIELDS.images]: [BATCH_FORM_MESSAGES.notMultipart] },
  });
  const received = form.files.map(toBatchFile);
  const images = received.filter((_, i) => form.files[i]!.field === BATCH_FIELDS.images);
  const archives = received.filter((_, i) => form.files[i]!.field === BATCH_FIELDS.archive);
  if (images.length > 0 && archives.length > 0)
    throw validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.bothKinds] });
  if (images.length === 0 && archives.length === 0)
    throw validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.noFiles] });
  const files = Object.fromEntries(
    form.files.flatMap((f, i) => (BATCH_FILE_FIELDS.includes(f.field) ? [[f.field, received[i]!] as const] : [])),
  );
  return { fields: form.fields, images, archive: archives[0] ?? null, files, session: uploadSessionOf(req) };
}
