import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A local stand-in of an OpenAI-compatible images API for tests: a real HTTP server on 127.0.0.1 answering
 * `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart, its `image` and `mask` recorded
 * as bytes) the way hosted providers do, and serving the files its URL replies point to.
 * Each request is answered by the next queued reply (`queue`), or by the default (`reply`); a prompt containing
 * `[[declined]]`, `[[fail]]` or `[[slow]]` picks that answer for one request whatever is queued (for
 * end-to-end tests, where the test cannot reach into the worker). Every request is recorded.
 */

export type FakeReply =
  /** 200 with `data[].b64_json` (or `data[].url` with `as: 'url'`), `n` solid images of `size` (default: the requested). */
  | { kind: 'images'; as?: 'b64' | 'url'; size?: [number, number]; count?: number }
  /** 200 with `data[].url` pointing anywhere (SSRF checks). */
  | { kind: 'url'; url: string }
  /** An error status with an OpenAI-style error body and optional headers (Retry-After...). */
  | { kind: 'error'; status: number; code?: string; param?: string; message?: string; headers?: Record<string, string> }
  /** Answers after `ms` (a slow reply: the client should time out first). */
  | { kind: 'slow'; ms: number }
  /** 200 whose body is not what the API promises. */
  | { kind: 'broken'; body: string };

export interface RecordedRequest {
  /** Which call: a generation or an edit. */
  endpoint: 'generations' | 'edits';
  authorization: string | undefined;
  body: {
    model?: string;
    prompt?: string;
    n?: number;
    size?: string;
    seed?: number;
    /** An edit's files. */
    image?: Buffer;
    mask?: Buffer;
    [k: string]: unknown;
  };
  at: number;
}

/** Colours of the images, one per image of a reply, so tests can tell them apart. */
const COLOURS = ['#d2452a', '#2a7fd2', '#3fa34d', '#e0b020'];

export class FakeImagesApi {
  readonly requests: RecordedRequest[] = [];
  /** Replies for the next requests, in order; when empty, `reply` answers. */
  readonly queue: FakeReply[] = [];
  reply: FakeReply = { kind: 'images' };
  /** When set, requests without `Authorization: Bearer <key>` get 401 (with the wrong key echoed, as providers do). */
  key: string | undefined;
  private readonly files = new Map<string, Buffer>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private server!: http.Server;
  baseUrl = '';

  static async start(): Promise<FakeImagesApi> {
    const fake = new FakeImagesApi();
    fake.server = http.createServer((req, res) => void fake.handle(req, res));
    fake.server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return fake;
  }

  /** Origin (scheme, host, port) of the server, for file URLs. */
  get origin(): string {
    return new URL(this.baseUrl).origin;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith('/files/')) {
      const file = this.files.get(req.url);
      res.writeHead(file ? 200 : 404, { 'content-type': 'image/png' }).end(file);
      return;
    }
    const endpoint = /^\/v1\/images\/(generations|edits)$/.exec(req.url ?? '')?.[1] as
      RecordedRequest['endpoint'] | undefined;
    if (req.method !== 'POST' || !endpoint) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body =
      endpoint === 'edits'
        ? await readForm(raw, req.headers['content-type'] ?? '')
        : (JSON.parse(raw.toString('utf8')) as RecordedRequest['body']);
    this.requests.push({ endpoint, authorization: req.headers.authorization, body, at: Date.now() });
    if (this.key !== undefined && req.headers.authorization !== `Bearer ${this.key}`) {
      const sent = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      return json(res, 401, {
        error: {
          message: `Incorrect API key provided: ${sent}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          param: null,
        },
      });
    }
    const marked = /\[\[(declined|fail|slow)\]\]/.exec(body.prompt ?? '')?.[1];
    const reply: FakeReply =
      marked === 'declined'
        ? {
            kind: 'error',
            status: 400,
            code: 'moderation_blocked',
            message: 'Your request was rejected by the safety system.',
          }
        : marked === 'fail'
          ? { kind: 'error', status: 500, code: 'server_error', message: 'The server had an error.' }
          : marked === 'slow'
            ? { kind: 'slow', ms: 60_000 }
            : (this.queue.shift() ?? this.reply);
    await this.answer(res, reply, body);
  }

  private async answer(res: http.ServerResponse, reply: FakeReply, body: RecordedRequest['body']): Promise<void> {
    switch (reply.kind) {
      case 'error': {
        const error = {
          message: reply.message ?? `error ${reply.status}`,
          type: 'invalid_request_error',
          code: reply.code ?? null,
          param: reply.param ?? null,
        };
        return json(res, reply.status, { error }, reply.headers);
      }
      case 'slow': {
        // The timer ends with the connection, so a client that gave up leaves nothing running here.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, reply.ms);
          res.on('close', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (!res.destroyed) json(res, 200, { data: [] });
        return;
      }
      case 'broken':
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply.body);
        return;
      case 'url':
        return json(res, 200, { created: 1, data: [{ url: reply.url }] });
      case 'images': {
        const [w, h] = reply.size ?? (body.size ?? '1024x1024').split('x').map(Number);
        const data = [];
        for (let i = 0; i < (reply.count ?? body.n ?? 1); i += 1) {
          const png = await sharp({
            create: { width: w!, height: h!, channels: 3, background: COLOURS[i % COLOURS.length]! },
          })
            .png()
            .toBuffer();
          if (reply.as === 'url') {
            const path = `/files/${this.requests.length}-${i}.png`;
            this.files.set(path, png);
            data.push({ url: `${this.origin}${path}` });
          } else {
            data.push({ b64_json: png.toString('base64') });
          }
        }
        return json(res, 200, { created: 1, data });
      }
    }
  }
}

/** An edit's multipart form: its text fields as they are (`n` as a number), its files as bytes. */
async function readForm(raw: Buffer, contentType: string): Promise<RecordedRequest['body']> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  const body: RecordedRequest['body'] = {};
  for (const [name, value] of form.entries()) {
    body[name] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer());
  }
  if (typeof body.n === 'string') body.n = Number(body.n);
  return body;
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
