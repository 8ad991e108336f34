import fs from 'node:fs';
import type { Request, Response } from 'express';
import { BODY_MESSAGES } from '../../http/error-handler';
import { AppError, validationError } from '../../lib/errors';
import { type EncodedKind, parseFileInThread, parseInline, type Parsed } from './encoded-body-parse';
import { endUpload, endWhenTooSlow, uploadSessionOf } from './upload-admission';
import type { UploadSession } from './upload-budget';

/** Bodies up to this size are kept in memory and parsed on the event loop; larger ones go to disk and a thread. */
const PARSE_INLINE_MAX_BYTES = 256 * 1024;

export interface EncodedBodyOptions {
  kind: EncodedKind;
  maxBytes: number;
  /** urlencoded: at most this many fields (a 422 beyond, not body-parser's 500). */
  maxFields: number;
  /**
   * Text fields that carry an image as base64, with the most bytes each may decode to: they come back decoded
   * (a DecodedBase64 in place of the text), so the text itself is never held by the API.
   */
  base64Fields?: Readonly<Record<string, number>>;
}

/**
 * A JSON or urlencoded body read like an upload (admitUpload before it): its bytes count against the upload budget
 * as they arrive (503 when it is full), it must keep up the upload's minimum rate (408), it may not pass `maxBytes`
 * (413, also from its Content-Length before anything is read), and a large one is parsed in a thread of its own.
 * body-parser read such bodies with none of this: 30 sockets each trickling 27 MB held 900 MB for ten minutes, and
 * 30 complete ones parsed on the event loop made /api/health wait seconds.
 */
export async function readEncodedBody(
  req: Request,
  res: Response,
  options: EncodedBodyOptions,
): Promise<Record<string, unknown>> {
  const session = uploadSessionOf(req);
  const tooLarge = () => endUpload(req, res, new AppError('payload_too_large', BODY_MESSAGES.tooLarge));
  if (Number(req.headers['content-length'] ?? 0) > options.maxBytes) throw tooLarge();
  const spool = new BodySpool(session);
  await new Promise<void>((resolve, reject) => {
    let total = 0;
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      session.stopWatching();
      req.off('data', onData);
      spool.discard();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      session.count(chunk.length);
      if (total > options.maxBytes) return fail(tooLarge());
      if (!session.reserve(chunk.length)) return fail(endUpload(req, res, session.budgetFull('body')));
      spool.write(req, chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      session.stopWatching();
      spool.finish().then(() => {
        done = true;
        resolve();
      }, fail);
    });
    spool.onError(fail);
    const hungUp = () => {
      if (done) return;
      // The client hung up: no fault of the server's, and nobody may be left to read the answer.
      req.log?.info({ type: 'request.aborted', received: total }, 'request body ended by the client');
      fail(new AppError('bad_request', BODY_MESSAGES.incomplete));
    };
    // A client that left before this reader started sends no 'aborted' any more: its request is destroyed.
    if (req.destroyed) return hungUp();
    req.once('aborted', hungUp);
    req.once('close', () => {
      if (!req.readableEnded) hungUp();
    });
    endWhenTooSlow(req, res, session, fail);
  });
  const parseOptions = { kind: options.kind, maxFields: options.maxFields, base64Fields: options.base64Fields ?? {} };
  const parsed: Parsed = spool.file
    ? await parseFileInThread(spool.file, parseOptions)
    : parseInline(spool.takeMemory(), parseOptions);
  if ('error' in parsed)
    throw parsed.error === 'tooManyFields'
      ? validationError({ form: [BODY_MESSAGES.tooManyFields] })
      : options.kind === 'json'
        ? new AppError('invalid_json', BODY_MESSAGES.invalidJson)
        : new AppError('bad_request', BODY_MESSAGES.unreadableForm);
  return parsed.fields;
}

/**
 * Where a body's bytes go as they arrive: memory while it is small, then a file in the upload's temporary folder
 * (removed with it when the response closes), so a body's cost is the upload disk budget it reserves, not the
 * API's memory: 8 bodies of 27 MB in flight from one key held ~250 MB of heap when they were buffered.
 */
class BodySpool {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private sink: fs.WriteStream | null = null;
  /** Set while the file is being opened: the request is paused and chunks wait here. */
  private opening: Promise<void> | null = null;
  private failed: (err: unknown) => void = () => undefined;
  private discarded = false;
  file: string | null = null;

  constructor(private readonly session: UploadSession) {}

  onError(fail: (err: unknown) => void): void {
    this.failed = fail;
  }

  write(req: Request, chunk: Buffer): void {
    if (this.sink && !this.opening) {
      // Backpressure: a disk slower than the client pauses the socket instead of queueing chunks in memory.
      if (!this.sink.write(chunk)) {
        req.pause();
        this.sink.once('drain', () => req.resume());
      }
      return;
    }
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered > PARSE_INLINE_MAX_BYTES && !this.opening) this.spill(req);
  }

  private spill(req: Request): void {
    req.pause();
    this.opening = this.session.tempPath('.body').then((file) => {
      if (this.discarded) return;
      this.file = file;
      this.sink = fs.createWriteStream(file);
      this.sink.on('error', (err) => this.failed(err));
      for (const chunk of this.chunks.splice(0)) this.sink.write(chunk);
      this.buffered = 0;
      this.opening = null;
      req.resume();
    });
    this.opening.catch((err: unknown) => this.failed(err));
  }

  /** Resolves once every byte is in memory or flushed to the file. */
  async finish(): Promise<void> {
    await this.opening;
    const sink = this.sink;
    if (!sink) return;
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject);
      sink.end(resolve);
    });
  }

  takeMemory(): Buffer {
    const body = Buffer.concat(this.chunks);
    this.chunks = [];
    return body;
  }

  /** Drops what was received; the file goes with the upload's folder when the response closes. */
  discard(): void {
    this.discarded = true;
    this.chunks = [];
    this.sink?.destroy();
  }
}
