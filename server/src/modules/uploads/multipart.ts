import busboy from 'busboy';
import type { Request, Response } from 'express';
import { LIMITS } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { UPLOAD_MESSAGES } from './image-inspect';

export interface MultipartUpload {
  fields: Record<string, string>;
  /** The one file of `fileField`, whole in memory (at most maxFileBytes), or null when none was sent. */
  file: Buffer | null;
  /** The file's name as the browser sent it (untrusted: used only to name downloads). */
  fileName: string | null;
}

interface Options {
  fileField: string;
  maxFileBytes?: number;
}

/**
 * What one upload form may hold besides its file. Going over any of them is a 422 naming the limit, never a
 * silently shortened form: a value cut at the limit could change the meaning of a request that is charged.
 */
export const MULTIPART_LIMITS = {
  /** Text fields (the tools take a handful; `lang_id`, `currency` and `callback_url` included). */
  fields: 30,
  /** Bytes of one text field's value (a callback URL fits many times over). */
  fieldBytes: 16 * 1024,
  /** Bytes of a field's name. */
  fieldNameBytes: 100,
} as const;

/** The refusals of a form's shape, in English (translations in migrations/seeds/strings/server.json). */
export const MULTIPART_MESSAGES = {
  notMultipart: 'Send the image as multipart/form-data.',
  unreadable: 'The upload could not be read.',
  interrupted: 'The upload was interrupted.',
  oneImage: 'Send one image per request.',
  wrongField: (expected: string, got: string) => `Send the image in the field "${expected}", not "${got}".`,
  tooManyFields: `Too many form fields: at most ${MULTIPART_LIMITS.fields}.`,
  fieldTooLong: `This field is too long: at most ${MULTIPART_LIMITS.fieldBytes / 1024} KB.`,
  repeatedField: 'This field was sent more than once.',
  fieldNameTooLong: `A field name is too long: at most ${MULTIPART_LIMITS.fieldNameBytes} bytes.`,
} as const;

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

/** Field names in errors are the request's own, but a hostile one is cut to the length busboy allows anyway. */
const shown = (name: string) => name.slice(0, MULTIPART_LIMITS.fieldNameBytes);

/**
 * Streams a multipart/form-data request through busboy: text fields, and exactly one file, in `fileField`,
 * kept in memory up to the limit. A declared Content-Length over the limit is refused before reading
 * anything; a body that grows past it is refused the moment it does. A second file, a file in another
 * field, a field sent twice, too many fields or an oversized field is a 422 as soon as busboy sees it.
 */
export function readMultipart(req: Request, res: Response, options: Options): Promise<MultipartUpload> {
  const maxFileBytes = options.maxFileBytes ?? LIMITS.uploadMaxBytes;
  const fileField = options.fileField;
  if (!req.is('multipart/form-data'))
    return Promise.reject(validationError({ [fileField]: [MULTIPART_MESSAGES.notMultipart] }));
  if (Number(req.headers['content-length'] ?? 0) > maxFileBytes + FRAMING_ALLOWANCE)
    return Promise.reject(tooLarge(req, res));

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    // The text fields are the request's body, as with any form: a `lang_id` field then sets the
    // language of the reply, including a refusal sent while the file is still arriving.
    req.body = fields;
    let file: Buffer | null = null;
    let fileName: string | null = null;
    let files = 0;
    let pending: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // The rest of a refused body is read and dropped (a 413 closes the connection instead), so the client
      // that is still sending gets the reply rather than a reset.
      req.resume();
      reject(err);
    };
    const parser = busboy({
      headers: req.headers,
      limits: {
        fileSize: maxFileBytes,
        // One more file and field than allowed, so that busboy hands us the extra one and the 'file' and
        // 'field' handlers refuse it; its *Limit events are the backstop.
        files: 2,
        fields: MULTIPART_LIMITS.fields + 1,
        parts: MULTIPART_LIMITS.fields + 3,
        // busboy flags a value as truncated once it reaches fieldSize, so one byte more lets a value of exactly
        // fieldBytes through whole. (Its fieldNameSize applies to urlencoded forms only; names are checked below.)
        fieldSize: MULTIPART_LIMITS.fieldBytes + 1,
      },
    });
    const tooManyFields = () => fail(validationError({ form: [MULTIPART_MESSAGES.tooManyFields] }));
    const oneImage = () => fail(validationError({ [fileField]: [MULTIPART_MESSAGES.oneImage] }));
    parser.on('field', (name, value, info) => {
      if (failed) return;
      if (info.nameTruncated || Buffer.byteLength(name) > MULTIPART_LIMITS.fieldNameBytes)
        return fail(validationError({ [shown(name)]: [MULTIPART_MESSAGES.fieldNameTooLong] }));
      if (info.valueTruncated) return fail(validationError({ [name]: [MULTIPART_MESSAGES.fieldTooLong] }));
      // Two values for one name would leave the choice between them to the parser: refuse instead.
      if (Object.hasOwn(fields, name)) return fail(validationError({ [name]: [MULTIPART_MESSAGES.repeatedField] }));
      if (Object.keys(fields).length >= MULTIPART_LIMITS.fields) return tooManyFields();
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      files += 1;
      if (failed) {
        stream.resume();
        return;
      }
      if (name !== fileField) {
        stream.resume();
        return fail(validationError({ [fileField]: [MULTIPART_MESSAGES.wrongField(fileField, shown(name))] }));
      }
      if (files > 1) {
        stream.resume();
        return oneImage();
      }
      fileName = info.filename ? info.filename.slice(0, 255) : null;
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
    parser.on('filesLimit', oneImage);
    parser.on('fieldsLimit', tooManyFields);
    parser.on('partsLimit', tooManyFields);
    parser.on('error', () => fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable)));
    parser.on('close', () => {
      void pending.then(() => {
        if (!failed) resolve({ fields, file, fileName });
      });
    });
    req.on('aborted', () => fail(new AppError('bad_request', MULTIPART_MESSAGES.interrupted)));
    req.pipe(parser);
  });
}
