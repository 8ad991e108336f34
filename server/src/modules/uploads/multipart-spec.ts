import type { FieldErrors } from '@imagestudio/contracts';

/** The shape of a multipart form the API reads (readForm): its limits, its refusals, what it gives back. */

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

/** Field names in errors are the request's own, but a hostile one is cut to the length allowed anyway. */
export const shown = (name: string) => name.slice(0, MULTIPART_LIMITS.fieldNameBytes);

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
