import { createHash } from 'node:crypto';
import fs from 'node:fs';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { LIMITS, type FieldErrors } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { UPLOAD_MESSAGES } from './image-inspect';
import { endUpload, endWhenTooSlow, uploadSessionOf } from './upload-budget';

export interface MultipartUpload {
  fields: Record<string, string>;
  /** The one file of `fileField`, read into memory once whole (at most maxFileBytes), or null when none was sent. */
  file: Buffer | null;
  /** The file's name as the browser sent it (untrusted: used only to name downloads). */
  fileName: string | null;
  /** The further files of `extraFileFields` that came, by field (read into memory like the file). */
  extraFiles: Record<string, Buffer>;
}

interface Options {
  fileField: string;
  /** Further file fields the form takes (one file each, at most maxFileBytes each). */
  extraFileFields?: readonly string[];
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

/** Room for the other form fields and the multipart framing on top of the files. */
const FRAMING_ALLOWANCE = 1024 * 1024;

/** Field names in errors are the request's own, but a hostile one is cut to the length allowed anyway. */
const shown = (name: string) => name.slice(0, MULTIPART_LIMITS.fieldNameBytes);

/** How one file field of a form is read. */
export interface FileRule {
  /** Files this field takes; one more is a 422 with `tooMany`. */
  maxCount: number;
  tooMany: FieldErrors;
  /** Bytes of one file. */
  maxBytes: number;
  /**
   * Past maxBytes: 'refuse' ends the whole upload with a 413 (`tooLarge`); 'skip' drops the file's bytes and
   * keeps reading, so the caller can name it with the other bad files.
   */
  oversize: 'refuse' | 'skip';
}

export interface FormSpec {
  files: Record<string, FileRule>;
  /** All files together; more is a 413 (before reading when Content-Length says so). */
  maxTotalBytes: number;
  /** The 413's message. */
  tooLarge: string;
  /** The 422 for a file in a field the form does not take. */
  wrongField: (got: string) => FieldErrors;
  /** The 422 for a body that is not multipart/form-data. */
  notMultipart: FieldErrors;
  /**
   * Text fields allowed past MULTIPART_LIMITS.fieldBytes, with their own limit in bytes: an image sent as base64
   * in a text field (remove.bg's `image_file_b64`). Past its limit such a field is a 413 (`tooLarge`), as its file
   * would be.
   */
  longFields?: Readonly<Record<string, number>>;
}

/** One received file, on disk in the upload's temporary folder until the response closes. */
export interface ReceivedFile {
  field: string;
  /** The name as the client sent it, read as UTF-8 (untrusted: used only to name errors and downloads). */
  name: string | null;
  /** Where its bytes are; null when it was skipped for its size. */
  path: string | null;
  /** Bytes received (all of them, skipped ones too). */
  size: number;
  /** SHA-256 of its bytes (hex), for idempotency fingerprints; null when skipped. */
  sha256: string | null;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/**
 * The one multipart reader of the API (single tool calls and batches): streams a multipart/form-data request
 * through busboy, text fields into `fields` and each file into a temporary file of the request's upload
 * (see admitUpload), reserving disk as bytes arrive. Strict, with a 422 as soon as busboy sees the problem:
 * a file in a field the form does not take, more files in a field than it takes, a field sent twice, more
 * than 30 fields, an oversized field or field name. File names are read as UTF-8 (busboy's default is
 * latin1, which garbles every non-ASCII name browsers send). A body slower than the minimum rate is a 408, a
 * full disk budget a 503; both close the connection, as a 413 does.
 */
export function readForm(req: Request, res: Response, spec: FormSpec): Promise<ReceivedForm> {
  if (!req.is('multipart/form-data')) return Promise.reject(validationError(spec.notMultipart));
  const session = uploadSessionOf(req);
  const tooLarge = () => endUpload(req, res, new AppError('payload_too_large', spec.tooLarge));
  if (Number(req.headers['content-length'] ?? 0) > spec.maxTotalBytes + FRAMING_ALLOWANCE)
    return Promise.reject(tooLarge());

  const totalFiles = Object.values(spec.files).reduce((n, rule) => n + rule.maxCount, 0);
  const longFields = spec.longFields ?? {};
  const longestField = Math.max(MULTIPART_LIMITS.fieldBytes, ...Object.values(longFields));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers and curl send file names as raw UTF-8 bytes.
      defParamCharset: 'utf8',
      limits: {
        // One more file and field than allowed, so that busboy hands us the extra one and the 'file' and
        // 'field' handlers refuse it; its *Limit events are the backstop.
        files: totalFiles + 1,
        fields: MULTIPART_LIMITS.fields + 1,
        parts: MULTIPART_LIMITS.fields + totalFiles + 3,
        // Each file is measured below; busboy's own limit only backs that up.
        fileSize: spec.maxTotalBytes + 1,
        // busboy flags a value as truncated once it reaches fieldSize, so one byte more lets a value of exactly
        // fieldBytes through whole. (Its fieldNameSize applies to urlencoded forms only; names are checked below.)
        // With long fields busboy keeps up to the longest, and the other fields' limit is checked below.
        fieldSize: longestField + 1,
      },
    });
  } catch {
    // A multipart Content-Type without a boundary, say.
    return Promise.reject(new AppError('bad_request', MULTIPART_MESSAGES.unreadable));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    // The text fields are the request's body, as with any form: a `lang_id` field then sets the
    // language of the reply, including a refusal sent while the files are still arriving.
    req.body = fields;
    const files: ReceivedFile[] = [];
    const counts = new Map<string, number>();
    const pending: Promise<void>[] = [];
    const writers = new Set<fs.WriteStream>();
    let totalBytes = 0;
    let failed = false;
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      session.stopWatching();
      req.off('data', countChunk);
      req.unpipe(parser);
      for (const w of writers) w.destroy();
      // The rest of a refused body is read and dropped (413, 408 and 503 close the connection instead), so
      // the client that is still sending gets the reply rather than a reset.
      req.resume();
      reject(err);
    };
    const countChunk = (chunk: Buffer) => session.count(chunk.length);
    const tooManyFields = () => fail(validationError({ form: [MULTIPART_MESSAGES.tooManyFields] }));
    const checkName = (name: string, truncated: boolean) => {
      if (truncated || Buffer.byteLength(name) > MULTIPART_LIMITS.fieldNameBytes) {
        fail(validationError({ [shown(name)]: [MULTIPART_MESSAGES.fieldNameTooLong] }));
        return false;
      }
      return true;
    };
    parser.on('field', (name, value, info) => {
      if (failed || !checkName(name, info.nameTruncated)) return;
      const long = Object.hasOwn(longFields, name);
      const limit = long ? longFields[name]! : MULTIPART_LIMITS.fieldBytes;
      if (info.valueTruncated || Buffer.byteLength(value) > limit)
        return long ? fail(tooLarge()) : fail(validationError({ [name]: [MULTIPART_MESSAGES.fieldTooLong] }));
      // Two values for one name would leave the choice between them to the parser: refuse instead.
      if (Object.hasOwn(fields, name) || counts.has(name))
        return fail(validationError({ [name]: [MULTIPART_MESSAGES.repeatedField] }));
      if (Object.keys(fields).length >= MULTIPART_LIMITS.fields) return tooManyFields();
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (failed || !checkName(name, false)) {
        stream.resume();
        return;
      }
      const rule = Object.hasOwn(spec.files, name) ? spec.files[name]! : null;
      if (!rule || Object.hasOwn(fields, name)) {
        stream.resume();
        return fail(
          validationError(rule ? { [name]: [MULTIPART_MESSAGES.repeatedField] } : spec.wrongField(shown(name))),
        );
      }
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      if (count > rule.maxCount) {
        stream.resume();
        return fail(validationError(rule.tooMany));
      }
      const file: ReceivedFile = {
        field: name,
        name: info.filename ? info.filename.slice(0, 255) : null,
        path: null,
        size: 0,
        sha256: null,
      };
      files.push(file);
      pending.push(
        session.tempPath().then(
          (filePath) =>
            new Promise<void>((done) => {
              if (failed) {
                stream.resume();
                return done();
              }
              const hash = createHash('sha256');
              const writer = fs.createWriteStream(filePath);
              let out: fs.WriteStream | null = writer;
              writers.add(writer);
              file.path = filePath;
              const drop = () => {
                if (!out) return;
                writers.delete(out);
                out.destroy();
                out = null;
                file.path = null;
              };
              writer.on('error', () => {
                // A write still in flight when the file was dropped (or the form refused) is expected to fail.
                if (out !== writer || failed) return;
                drop();
                fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable));
              });
              stream.on('data', (chunk: Buffer) => {
                if (failed) return;
                totalBytes += chunk.length;
                file.size += chunk.length;
                if (totalBytes > spec.maxTotalBytes) return fail(tooLarge());
                if (file.size > rule.maxBytes) {
                  if (rule.oversize === 'refuse') return fail(tooLarge());
                  drop();
                }
                if (!out) return;
                if (!session.reserve(chunk.length)) return fail(endUpload(req, res, session.budgetFull('body')));
                hash.update(chunk);
                if (!out.write(chunk)) {
                  stream.pause();
                  out.once('drain', () => stream.resume());
                }
              });
              stream.on('limit', () => fail(tooLarge()));
              stream.on('error', () => done());
              stream.on('end', () => {
                if (!out || failed) return done();
                const w = out;
                w.end(() => {
                  writers.delete(w);
                  file.sha256 = hash.digest('hex');
                  done();
                });
              });
            }),
          () => {
            stream.resume();
            fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable));
          },
        ),
      );
    });
    parser.on('filesLimit', () => {
      const [first] = Object.values(spec.files);
      if (first) fail(validationError(first.tooMany));
    });
    parser.on('fieldsLimit', tooManyFields);
    parser.on('partsLimit', tooManyFields);
    parser.on('error', () => fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable)));
    parser.on('close', () => {
      session.stopWatching();
      void Promise.all(pending).then(() => {
        if (!failed) resolve({ fields, files });
      });
    });
    req.on('aborted', () => fail(new AppError('bad_request', MULTIPART_MESSAGES.interrupted)));
    endWhenTooSlow(req, res, session, fail);
    req.on('data', countChunk);
    req.pipe(parser);
  });
}

/**
 * A tool call's form: its text fields and exactly one file, in `fileField` (at most maxFileBytes, else 413),
 * read into memory once it has arrived whole, and at most one file in each of `extraFileFields` (see readForm
 * for everything else).
 */
export async function readMultipart(req: Request, res: Response, options: Options): Promise<MultipartUpload> {
  const maxFileBytes = options.maxFileBytes ?? LIMITS.uploadMaxBytes;
  const fileField = options.fileField;
  const extraFields = options.extraFileFields ?? [];
  const rule = (field: string): FileRule => ({
    maxCount: 1,
    tooMany: { [field]: [MULTIPART_MESSAGES.oneImage] },
    maxBytes: maxFileBytes,
    oversize: 'refuse',
  });
  const form = await readForm(req, res, {
    files: Object.fromEntries([fileField, ...extraFields].map((field) => [field, rule(field)])),
    maxTotalBytes: maxFileBytes * (1 + extraFields.length),
    tooLarge: UPLOAD_MESSAGES.tooLarge,
    wrongField: (got) => ({ [fileField]: [MULTIPART_MESSAGES.wrongField(fileField, got)] }),
    notMultipart: { [fileField]: [MULTIPART_MESSAGES.notMultipart] },
  });
  const file = form.files.find((f) => f.field === fileField);
  const extraFiles: Record<string, Buffer> = {};
  for (const f of form.files)
    if (f.field !== fileField && f.path) extraFiles[f.field] = await fs.promises.readFile(f.path);
  return {
    fields: form.fields,
    file: file?.path ? await fs.promises.readFile(file.path) : null,
    fileName: file?.name ?? null,
    extraFiles,
  };
}
