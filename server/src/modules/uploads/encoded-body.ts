import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import type { Request, Response } from 'express';
import { BODY_MESSAGES } from '../../http/error-handler';
import { AppError, validationError } from '../../lib/errors';
import { endUpload, endWhenTooSlow, uploadSessionOf } from './upload-budget';

/** Bodies up to this size are parsed on the event loop; larger ones (base64 images) in a thread of their own. */
const PARSE_INLINE_MAX_BYTES = 256 * 1024;

export interface EncodedBodyOptions {
  kind: 'json' | 'urlencoded';
  maxBytes: number;
  /** urlencoded: at most this many fields (a 422 beyond, not body-parser's 500). */
  maxFields: number;
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
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    let total = 0;
    let done = false;
    const fail = (err: AppError) => {
      if (done) return;
      done = true;
      session.stopWatching();
      req.off('data', onData);
      chunks.length = 0;
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      session.count(chunk.length);
      if (total > options.maxBytes) return fail(tooLarge());
      if (!session.reserve(chunk.length)) return fail(endUpload(req, res, session.budgetFull('body')));
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      done = true;
      session.stopWatching();
      resolve();
    });
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
  const body = Buffer.concat(chunks);
  chunks.length = 0;
  const parsed = body.length <= PARSE_INLINE_MAX_BYTES ? parseBody(body, options) : await parseInThread(body, options);
  if ('error' in parsed)
    throw parsed.error === 'tooManyFields'
      ? validationError({ form: [BODY_MESSAGES.tooManyFields] })
      : options.kind === 'json'
        ? new AppError('invalid_json', BODY_MESSAGES.invalidJson)
        : new AppError('bad_request', BODY_MESSAGES.unreadableForm);
  return parsed.fields;
}

type Parsed = { fields: Record<string, unknown> } | { error: 'unreadable' | 'tooManyFields' };

/**
 * The parse, as plain JavaScript source so the same code runs inline and in the thread (a thread evaluates a
 * string: no build step or loader is needed in the API, its tests or its bundle).
 */
const PARSE_SOURCE = `(function parse(text, kind, maxFields) {
  if (kind === 'json') {
    if (text.trim() === '') return { fields: {} };
    let value;
    try { value = JSON.parse(text); } catch { return { error: 'unreadable' }; }
    return value && typeof value === 'object' && !Array.isArray(value) ? { fields: value } : { error: 'unreadable' };
  }
  const params = new URLSearchParams(text);
  const fields = {};
  let count = 0;
  for (const [name, value] of params) {
    if (++count > maxFields) return { error: 'tooManyFields' };
    fields[name] = value;
  }
  return { fields };
})`;

const parseText = vm.runInThisContext(PARSE_SOURCE) as (text: string, kind: string, maxFields: number) => Parsed;

function parseBody(body: Buffer, options: EncodedBodyOptions): Parsed {
  return parseText(body.toString('utf8'), options.kind, options.maxFields);
}

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const parse = ${PARSE_SOURCE};
const { bytes, kind, maxFields } = workerData;
parentPort.postMessage(parse(Buffer.from(bytes).toString('utf8'), kind, maxFields));
`;

/** Parses in a thread of its own: a 27 MB JSON body takes the event loop ~100 ms to parse. */
async function parseInThread(body: Buffer, options: EncodedBodyOptions): Promise<Parsed> {
  const bytes = new Uint8Array(body).buffer;
  const thread = new Worker(THREAD, {
    eval: true,
    workerData: { bytes, kind: options.kind, maxFields: options.maxFields },
    transferList: [bytes],
  });
  try {
    return await new Promise<Parsed>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the body parser thread ended (exit code ${code})`)));
    });
  } finally {
    await thread.terminate();
  }
}
