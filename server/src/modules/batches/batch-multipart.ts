import busboy from 'busboy';
import type { Request, Response } from 'express';
import { BATCH_FIELDS, BATCH_LIMITS, BATCH_MESSAGES } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';

/** One file of the `images` field, whole in memory unless it passed the per-image limit. */
export interface BatchFile {
  /** The name as the browser sent it (untrusted: used only to name errors and downloads). */
  name: string;
  /** null when the file was larger than an upload may be (its bytes were skipped, not kept). */
  bytes: Buffer | null;
}

export interface BatchUpload {
  fields: Record<string, string>;
  images: BatchFile[];
  /** The ZIP of the `archive` field, if one was sent. */
  archive: BatchFile | null;
}

/** Room for the text fields and the multipart framing on top of the files. */
const FRAMING_ALLOWANCE = 1024 * 1024;

function tooLarge(req: Request, res: Response): AppError {
  // The rest of the body is neither buffered nor read: the connection closes after the reply.
  res.once('finish', () => req.socket.destroy());
  return new AppError('payload_too_large', BATCH_MESSAGES.tooLarge, { headers: { Connection: 'close' } });
}

/**
 * Reads a batch upload (multipart/form-data) through busboy: the text fields, up to BATCH_LIMITS.maxItems
 * files in `images` or one ZIP in `archive`. All files together may be at most BATCH_LIMITS.maxTotalBytes
 * (413 as soon as they pass it, or before reading when Content-Length says so). An image over the single-upload
 * limit is not refused here: its bytes are skipped and it is reported with the other bad files, so the user
 * learns about every bad file at once.
 */
export function readBatchMultipart(req: Request, res: Response): Promise<BatchUpload> {
  if (!req.is('multipart/form-data'))
    return Promise.reject(validationError({ [BATCH_FIELDS.images]: ['Send the images as multipart/form-data.'] }));
  if (Number(req.headers['content-length'] ?? 0) > BATCH_LIMITS.maxTotalBytes + FRAMING_ALLOWANCE)
    return Promise.reject(tooLarge(req, res));

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    // As for single uploads, the text fields are the request's body (a `lang_id` field localises the reply).
    req.body = fields;
    const images: BatchFile[] = [];
    const archives: BatchFile[] = [];
    const pending: Promise<void>[] = [];
    let totalBytes = 0;
    let failed = false;
    let tooManyFiles = false;
    let fieldProblem: string | null = null;

    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      parser.removeAllListeners('file');
      reject(err);
    };
    const parser = busboy({
      headers: req.headers,
      limits: {
        // One more than allowed, so "too many" is noticed rather than silently cut off.
        files: BATCH_LIMITS.maxItems + 1,
        fileSize: BATCH_LIMITS.maxTotalBytes,
        fields: 30,
        fieldSize: 16 * 1024,
        parts: BATCH_LIMITS.maxItems + 32,
      },
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fieldProblem = `The field ${name} is too long.`;
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => {
      fieldProblem = 'Too many form fields.';
    });
    parser.on('partsLimit', () => {
      fieldProblem = 'Too many form parts.';
    });
    parser.on('filesLimit', () => {
      tooManyFiles = true;
    });
    parser.on('file', (name, stream, info) => {
      const isImage = name === BATCH_FIELDS.images;
      if (!isImage && name !== BATCH_FIELDS.archive) {
        stream.resume(); // a part the batch does not use: skip its bytes
        return;
      }
      const file: BatchFile = {
        name: (info.filename || `file-${images.length + archives.length + 1}`).slice(0, 255),
        bytes: null,
      };
      (isImage ? images : archives).push(file);
      const perFileMax = isImage ? BATCH_LIMITS.maxItemBytes : BATCH_LIMITS.maxTotalBytes;
      const chunks: Buffer[] = [];
      let size = 0;
      let skipped = false;
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => {
            totalBytes += chunk.length;
            if (totalBytes > BATCH_LIMITS.maxTotalBytes) return fail(tooLarge(req, res));
            size += chunk.length;
            if (size > perFileMax) {
              skipped = true;
              chunks.length = 0;
            }
            if (!skipped) chunks.push(chunk);
          });
          stream.on('limit', () => fail(tooLarge(req, res)));
          stream.on('end', () => {
            if (!skipped) file.bytes = Buffer.concat(chunks);
            done();
          });
          stream.on('error', () => done());
        }),
      );
    });
    parser.on('error', () => fail(new AppError('bad_request', 'The upload could not be read.')));
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        if (failed) return;
        if (fieldProblem) return fail(validationError({ form: [fieldProblem] }));
        if (images.length > 0 && archives.length > 0)
          return fail(validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.bothKinds] }));
        if (archives.length > 1) return fail(validationError({ [BATCH_FIELDS.archive]: [BATCH_MESSAGES.oneArchive] }));
        if (tooManyFiles || images.length > BATCH_LIMITS.maxItems)
          return fail(validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.tooManyFiles] }));
        if (images.length === 0 && archives.length === 0)
          return fail(validationError({ [BATCH_FIELDS.images]: [BATCH_MESSAGES.noFiles] }));
        resolve({ fields, images, archive: archives[0] ?? null });
      });
    });
    req.on('aborted', () => fail(new AppError('bad_request', 'The upload was interrupted.')));
    req.pipe(parser);
  });
}
