import fs from 'node:fs';
import type { Request, Response } from 'express';
import { LIMITS } from '@imagestudio/contracts';
import { AppError, validationError } from '../../lib/errors';
import { formParser } from './form-parser';
import { FormReader } from './form-reader';
import { UPLOAD_MESSAGES } from './image-inspect';
import { type FileRule, type FormSpec, MULTIPART_MESSAGES, type ReceivedForm } from './multipart-spec';
import { endUpload, uploadSessionOf } from './upload-admission';

export {
  MULTIPART_LIMITS,
  MULTIPART_MESSAGES,
  type FormSpec,
  type ReceivedFile,
  type ReceivedForm,
} from './multipart-spec';

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

/** Room for the other form fields and the multipart framing on top of the files. */
const FRAMING_ALLOWANCE = 1024 * 1024;

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
  if (Number(req.headers['content-length'] ?? 0) > spec.maxTotalBytes + FRAMING_ALLOWANCE)
    return Promise.reject(endUpload(req, res, new AppError('payload_too_large', spec.tooLarge)));
  let parser;
  try {
    parser = formParser(req, spec);
  } catch (err) {
    return Promise.reject(err as AppError);
  }
  return new Promise((resolve, reject) => {
    const reader = new FormReader(req, res, spec, session, parser, reject);
    // The text fields are the request's body, as with any form: a `lang_id` field then sets the
    // language of the reply, including a refusal sent while the files are still arriving.
    req.body = reader.fields;
    reader.start(resolve);
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
