import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

/**
 * Parsing a JSON or urlencoded body, inline for a small one and in a thread of its own for a large one (a 27 MB JSON
 * body takes the event loop ~100 ms to parse). A large body is read by the thread from the file it was spooled to,
 * and a base64 image field is decoded there too: what comes back is the image's bytes (a transferred buffer), so
 * the API's heap never holds the body or the base64 text.
 */

export type EncodedKind = 'json' | 'urlencoded';

/** A base64 field as the parse hands it over: its bytes, or why there are none. */
export interface DecodedBase64 {
  readonly kind: 'decoded-base64';
  readonly bytes: Buffer | null;
  readonly error: 'invalid' | 'too_large' | null;
}

export function isDecodedBase64(value: unknown): value is DecodedBase64 {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'decoded-base64';
}

export interface ParseOptions {
  kind: EncodedKind;
  /** urlencoded: at most this many fields. */
  maxFields: number;
  /** Text fields holding a base64 image, with the most bytes each may decode to. */
  base64Fields: Readonly<Record<string, number>>;
}

export type Parsed = { fields: Record<string, unknown> } | { error: 'unreadable' | 'tooManyFields' };

/**
 * The parse and the base64 decode, as plain JavaScript source so the same code runs inline and in the thread (a
 * thread evaluates a string: no build step or loader is needed in the API, its tests or its bundle). Base64 may be
 * standard or URL-safe, with a `data:` URL prefix; a decoded field is `{ kind, bytes, error }`.
 */
const PARSE_SOURCE = `(function () {
  function decodeBase64(text, maxBytes) {
    const data = text.replace(/^data:[^,]*;base64,/i, '').replace(/\\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length % 4 === 1)
      return { kind: 'decoded-base64', bytes: null, error: 'invalid' };
    if ((data.length * 3) / 4 > maxBytes + 3) return { kind: 'decoded-base64', bytes: null, error: 'too_large' };
    return { kind: 'decoded-base64', bytes: Buffer.from(data, 'base64'), error: null };
  }
  function parse(text, kind, maxFields, base64Fields) {
    let fields;
    if (kind === 'json') {
      if (text.trim() === '') return { fields: {} };
      let value;
      try { value = JSON.parse(text); } catch { return { error: 'unreadable' }; }
      if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'unreadable' };
      fields = value;
    } else {
      const params = new URLSearchParams(text);
      fields = {};
      let count = 0;
      for (const [name, value] of params) {
        if (++count > maxFields) return { error: 'tooManyFields' };
        fields[name] = value;
      }
    }
    for (const [name, maxBytes] of Object.entries(base64Fields)) {
      // Blank counts as absent, as for every other field; a value that is not text is left for the caller to refuse.
      if (typeof fields[name] === 'string' && fields[name].trim() !== '')
        fields[name] = decodeBase64(fields[name], maxBytes);
    }
    return { fields };
  }
  return { parse, decodeBase64 };
})()`;

const inline = vm.runInThisContext(PARSE_SOURCE) as {
  parse: (text: string, kind: EncodedKind, maxFields: number, base64Fields: Record<string, number>) => Parsed;
  decodeBase64: (text: string, maxBytes: number) => DecodedBase64;
};

/** Decodes base64 text (standard or URL-safe, a `data:` prefix allowed) of at most `maxBytes` bytes. */
export const decodeBase64 = (text: string, maxBytes: number): DecodedBase64 => inline.decodeBase64(text, maxBytes);

/** Parses a body held in memory, on the event loop: for small bodies only. */
export function parseInline(body: Buffer, options: ParseOptions): Parsed {
  return inline.parse(body.toString('utf8'), options.kind, options.maxFields, { ...options.base64Fields });
}

const THREAD = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const { parse } = ${PARSE_SOURCE};
const { file, kind, maxFields, base64Fields } = workerData;
const parsed = parse(fs.readFileSync(file, 'utf8'), kind, maxFields, base64Fields);
const transfer = [];
if (parsed.fields) {
  for (const name of Object.keys(base64Fields)) {
    const field = parsed.fields[name];
    if (!field || field.kind !== 'decoded-base64' || !field.bytes) continue;
    // A buffer of its own (never a slice of Node's shared pool), handed over without a copy.
    const own = new Uint8Array(field.bytes.length);
    own.set(field.bytes);
    parsed.fields[name] = { ...field, bytes: own };
    transfer.push(own.buffer);
  }
}
parentPort.postMessage(parsed, transfer);
`;

/** Parses the body spooled to `file` in a thread of its own; decoded base64 fields come back as Buffers. */
export async function parseFileInThread(file: string, options: ParseOptions): Promise<Parsed> {
  const thread = new Worker(THREAD, {
    eval: true,
    workerData: { file, kind: options.kind, maxFields: options.maxFields, base64Fields: { ...options.base64Fields } },
  });
  try {
    const parsed = await new Promise<Parsed>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the body parser thread ended (exit code ${code})`)));
    });
    if ('fields' in parsed)
      for (const name of Object.keys(options.base64Fields)) {
        const field = parsed.fields[name];
        // Structured cloning turns the Buffer into a plain Uint8Array over the transferred memory.
        if (isDecodedBase64(field) && field.bytes)
          parsed.fields[name] = { ...field, bytes: Buffer.from(field.bytes.buffer, 0, field.bytes.byteLength) };
      }
    return parsed;
  } finally {
    await thread.terminate();
  }
}
