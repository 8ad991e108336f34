import busboy from 'busboy';
import type { Request, Response } from 'express';
import { LIMITS } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { UPLOAD_MESSAGES } from './image-inspect';

export interface MultipartUpload {
  fields: Record<string, string>;
  /** The one file of `fileField`, whole in memory (at most maxFileBytes), or null when none was sent. */
  file: Buffer | null;
}

interface Options {
  fileField: string;
  maxFileBytes?: number;
}

/** Room for the other form fields and the multipart framing on top of the file itself. */
const FRAMING_ALLOWANCE = 64 * 1024;

/**
 * The 413 for an oversized upload. The connection is closed after the reply, so the rest of the body is
 * neither buffered nor read.
 */
function tooLarge(req: Request, res: Response): AppError {
  res.once('finish', () => req.socket.destroy());
  return new AppError('payload_too_large', UPLOAD_MESSAGES.tooLarge, { headers: { Connection: 'close' } });
}

/**
 * Streams a multipart/form-data request through busboy: text fields, and one file kept in memory up to
 * the limit. A declared Content-Length over the limit is refused before reading anything; a body that
 * grows past it is refused the moment it does.
 */
export function readMultipart(req: Request, res: Response, options: Options): Promise<MultipartUpload> {
  const maxFileBytes = options.maxFileBytes ?? LIMITS.uploadMaxBytes;
  if (!req.is('multipart/form-data')) return Promise.reject(validationError({ [options.fileField]: ['Send the image as multipart/form-data.'] }));
  if (Number(req.headers['content-length'] ?? 0) > maxFileBytes + FRAMING_ALLOWANCE) return Promise.reject(tooLarge(req, res));

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Buffer | null = null;
    let pending: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      reject(err);
    };
    const parser = busboy({
      headers: req.headers,
      limits: { fileSize: maxFileBytes, files: 1, fields: 30, fieldSize: 16 * 1024, parts: 32 },
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== options.fileField || file) {
        stream.resume(); // an unexpected extra part: skip its bytes
        return;
      }
      const chunks: Buffer[] = [];
      pending = new Promise<void>((done) => {
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => fail(tooLarge(req, res)));
        stream.on('end', () => {
          file = Buffer.concat(chunks);
          done();
        });
      });
    });
    parser.on('error', () => fail(new AppError('bad_request', 'The upload could not be read.')));
    parser.on('close', () => {
      void pending.then(() => {
        if (!failed) resolve({ fields, file });
      });
    });
    req.on('aborted', () => fail(new AppError('bad_request', 'The upload was interrupted.')));
    req.pipe(parser);
  });
}
