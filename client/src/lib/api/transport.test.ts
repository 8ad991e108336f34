import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callTimeoutMs, MIN_UPLOAD_BYTES_PER_S, queryString, TransportError, xhrTransport } from './transport';

/** What the server saw of the last request. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('xhrTransport (jsdom XMLHttpRequest against a local server)', () => {
  let server: http.Server;
  let base: string;
  let seen: Seen | null = null;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // jsdom's page origin is http://localhost: the cross-origin reply must allow it with credentials.
      res.setHeader('Access-Control-Allow-Origin', String(req.headers.origin ?? '*'));
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Headers', 'content-type, x-xsrf-token, accept');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      if (req.method === 'OPTIONS') return void res.end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        if (req.url?.startsWith('/api/slow')) return void setTimeout(() => res.end('{}'), 500);
        if (req.url?.startsWith('/api/text')) return void res.end('plain words');
        res.statusCode = req.url?.startsWith('/api/missing') ? 404 : 200;
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify(
            res.statusCode === 200
              ? { status: 'OK', payload: 1 }
              : { status: 'ERROR', code: 'not_found', message: 'Gone' },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends JSON bodies with their content type, the query and the headers, and parses the JSON reply', async () => {
    const send = xhrTransport(base, 2000);
    const reply = await send({
      method: 'POST',
      url: '/things',
      params: { page: 2, skip: undefined, q: 'a b' },
      data: { x: 1 },
      headers: { 'X-XSRF-TOKEN': 'tok' },
    });
    expect(reply).toEqual({ status: 200, data: { status: 'OK', payload: 1 } });
    expect(seen).toMatchObject({ method: 'POST', url: '/api/things?page=2&q=a+b', body: '{"x":1}' });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['x-xsrf-token']).toBe('tok');
  });

  it('resolves with error replies too (the API client reads their envelope)', async () => {
    const reply = await xhrTransport(base, 2000)({ method: 'GET', url: '/missing', params: {}, headers: {} });
    expect(reply).toEqual({ status: 404, data: { status: 'ERROR', code: 'not_found', message: 'Gone' } });
  });

  it('keeps a body that is not JSON as text', async () => {
    const reply = await xhrTransport(base, 2000)({ method: 'GET', url: '/text', params: {}, headers: {} });
    expect(reply.data).toBe('plain words');
  });

  it('rejects with a TransportError on timeout, on an unreachable server and on abort (marked aborted)', async () => {
    await expect(
      xhrTransport(base, 100)({ method: 'GET', url: '/slow', params: {}, headers: {} }),
    ).rejects.toMatchObject({ name: 'TransportError', aborted: false });
    // jsdom reports the refused connection on the console as well; that line is expected here.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      xhrTransport('http://127.0.0.1:1/api', 2000)({ method: 'GET', url: '/x', params: {}, headers: {} }),
    ).rejects.toBeInstanceOf(TransportError);
    quiet.mockRestore();
    const controller = new AbortController();
    const pending = xhrTransport(
      base,
      2000,
    )({ method: 'GET', url: '/slow', params: {}, headers: {}, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ aborted: true });
  });
});

describe('upload time limits', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader('Access-Control-Allow-Origin', String(req.headers.origin ?? '*'));
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Headers', 'content-type');
      if (req.method === 'OPTIONS') return void res.end();
      // The body arrives as over a slow uplink: nothing is read for 600 ms; the reply is immediate after that.
      req.pause();
      setTimeout(() => {
        req.resume();
        req.on('data', () => undefined);
        req.on('end', () => res.setHeader('Content-Type', 'application/json').end('{"status":"OK"}'));
      }, 600);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives a multipart upload its size at the slowest uplink rate on top of the reply time limit', () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(MIN_UPLOAD_BYTES_PER_S * 3)]), 'photo.png');
    form.append('scale', '4');
    expect(callTimeoutMs(6000, form)).toBe(6000 + 3000 + 1);
    expect(callTimeoutMs(6000, '{"a":1}')).toBe(6000);
    expect(callTimeoutMs(6000, null)).toBe(6000);
  });

  it('does not cut off an upload that is still being sent, while a JSON call to the same slow server times out', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(MIN_UPLOAD_BYTES_PER_S)]), 'photo.png');
    const send = xhrTransport(base, 200);
    await expect(send({ method: 'POST', url: '/tools/upscale', params: {}, data: form, headers: {} })).resolves.toEqual(
      {
        status: 200,
        data: { status: 'OK' },
      },
    );
    await expect(
      send({ method: 'POST', url: '/tools/upscale', params: {}, data: { scale: 4 }, headers: {} }),
    ).rejects.toMatchObject({ name: 'TransportError', aborted: false, message: 'No reply within 200 ms' });
  });
});

describe('queryString', () => {
  it('leaves out undefined and null and encodes the rest', () => {
    expect(queryString({})).toBe('');
    expect(queryString({ a: 1, b: null, c: undefined, d: 'x&y' })).toBe('?a=1&d=x%26y');
  });
});
