import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import type { Request, Response } from 'express';
import { AppError, validationError } from '../../lib/errors';
import {
  type FileRule,
  type FormSpec,
  MULTIPART_LIMITS,
  MULTIPART_MESSAGES,
  type ReceivedFile,
  type ReceivedForm,
  shown,
} from './multipart-spec';
import { receiveFile } from './received-file';
import { endUpload, endWhenTooSlow } from './upload-admission';
import type { UploadSession } from './upload-budget';

/** The longest file name kept (characters); the client's name only labels errors and downloads. */
const MAX_FILE_NAME = 255;

/**
 * One form being read (readForm): the parser's events checked against the spec as they come, the files written
 * to the upload's temporary folder, and the first refusal ending it all (fail).
 */
export class FormReader {
  readonly fields: Record<string, string> = {};
  readonly files: ReceivedFile[] = [];
  /** File parts seen per field. */
  private readonly counts = new Map<string, number>();
  /** The files still being written. */
  private readonly pending: Promise<void>[] = [];
  /** Open temporary files, destroyed when the form is refused. */
  readonly writers = new Set<fs.WriteStream>();
  /** Bytes of all files so far. */
  totalBytes = 0;
  failed = false;
  private readonly longFields: Readonly<Record<string, number>>;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly spec: FormSpec,
    readonly session: UploadSession,
    private readonly parser: busboy.Busboy,
    private readonly reject: (err: AppError) => void,
  ) {
    this.longFields = spec.longFields ?? {};
  }

  /** Wires the parser and the request up; resolves with the form once the parser and every file are done. */
  start(resolve: (form: ReceivedForm) => void): void {
    const { req, parser, spec } = this;
    parser.on('field', (name, value, info) => this.onField(name, value, info));
    parser.on('file', (name, stream, info) => this.onFile(name, stream, info));
    parser.on('filesLimit', () => {
      const [first] = Object.values(spec.files);
      if (first) this.fail(validationError(first.tooMany));
    });
    parser.on('fieldsLimit', this.tooManyFields);
    parser.on('partsLimit', this.tooManyFields);
    parser.on('error', () => this.fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable)));
    parser.on('close', () => {
      this.session.stopWatching();
      void Promise.all(this.pending).then(() => {
        if (!this.failed) resolve({ fields: this.fields, files: this.files });
      });
    });
    req.on('aborted', () => this.fail(new AppError('bad_request', MULTIPART_MESSAGES.interrupted)));
    endWhenTooSlow(req, this.res, this.session, this.fail);
    req.on('data', this.countChunk);
    req.pipe(parser);
  }

  /** Ends the form with its first refusal; later ones are dropped. */
  readonly fail = (err: AppError): void => {
    if (this.failed) return;
    this.failed = true;
    this.session.stopWatching();
    this.req.off('data', this.countChunk);
    this.req.unpipe(this.parser);
    for (const w of this.writers) w.destroy();
    // The rest of a refused body is read and dropped (413, 408 and 503 close the connection instead), so
    // the client that is still sending gets the reply rather than a reset.
    this.req.resume();
    this.reject(err);
  };

  /** The 413 that closes the upload. */
  readonly tooLarge = (): AppError =>
    endUpload(this.req, this.res, new AppError('payload_too_large', this.spec.tooLarge));

  private readonly countChunk = (chunk: Buffer) => this.session.count(chunk.length);

  private readonly tooManyFields = () => this.fail(validationError({ form: [MULTIPART_MESSAGES.tooManyFields] }));

  private nameFits(name: string, truncated: boolean): boolean {
    if (truncated || Buffer.byteLength(name) > MULTIPART_LIMITS.fieldNameBytes) {
      this.fail(validationError({ [shown(name)]: [MULTIPART_MESSAGES.fieldNameTooLong] }));
      return false;
    }
    return true;
  }

  private onField(name: string, value: string, info: busboy.FieldInfo): void {
    if (this.failed || !this.nameFits(name, info.nameTruncated)) return;
    const long = Object.hasOwn(this.longFields, name);
    const limit = long ? this.longFields[name]! : MULTIPART_LIMITS.fieldBytes;
    if (info.valueTruncated || Buffer.byteLength(value) > limit)
      return long
        ? this.fail(this.tooLarge())
        : this.fail(validationError({ [name]: [MULTIPART_MESSAGES.fieldTooLong] }));
    // Two values for one name would leave the choice between them to the parser: refuse instead.
    if (Object.hasOwn(this.fields, name) || this.counts.has(name))
      return this.fail(validationError({ [name]: [MULTIPART_MESSAGES.repeatedField] }));
    if (Object.keys(this.fields).length >= MULTIPART_LIMITS.fields) return this.tooManyFields();
    this.fields[name] = value;
  }

  private onFile(name: string, stream: Readable, info: busboy.FileInfo): void {
    const rule = this.fileRule(name);
    if (!rule || rule instanceof AppError) {
      stream.resume();
      if (rule) this.fail(rule);
      return;
    }
    const file: ReceivedFile = {
      field: name,
      name: info.filename ? info.filename.slice(0, MAX_FILE_NAME) : null,
      path: null,
      size: 0,
      sha256: null,
    };
    this.files.push(file);
    this.pending.push(
      this.session.tempPath().then(
        (filePath) => receiveFile(this, file, rule, stream, filePath),
        () => {
          stream.resume();
          this.fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable));
        },
      ),
    );
  }

  /**
   * The rule of a file part's field, the part counted; the refusal when the form does not take it there; null
   * when the form is refused already (or is now, for the part's name).
   */
  private fileRule(name: string): FileRule | AppError | null {
    if (this.failed || !this.nameFits(name, false)) return null;
    const rule = Object.hasOwn(this.spec.files, name) ? this.spec.files[name]! : null;
    if (!rule || Object.hasOwn(this.fields, name))
      return validationError(rule ? { [name]: [MULTIPART_MESSAGES.repeatedField] } : this.spec.wrongField(shown(name)));
    const count = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, count);
    if (count > rule.maxCount) return validationError(rule.tooMany);
    return rule;
  }
}
