import net from 'node:net';
import express from 'express';
import { createHttpServer } from './http-server';

/**
 * Sends `parts` over a raw socket with `gapMs` between them; resolves with what the server answered. Sending stops
 * when the server hangs up: a timer left rescheduling itself for the parts never sent kept jest from exiting.
 */
function trickle(port: number, parts: string[], gapMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      resolve(answer);
    };
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', done);
    socket.on('error', done);
    let i = 0;
    const next = () => {
      if (i >= parts.length || socket.destroyed) return;
      socket.write(parts[i++] as string);
      if (i < parts.length) timer = setTimeout(next, gapMs);
    };
    socket.on('connect', next);
  });
}

describe('slow clients', () => {
  const app = express();
  app.post('/upload', (req, res) => {
    req.resume();
    req.on('end', () => res.send('stored'));
  });
  const server = createHttpServer(app, { HTTP_HEADERS_TIMEOUT_MS: 1000, HTTP_REQUEST_TIMEOUT_MS: 2000 });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('answers 408 when the headers do not arrive in time', async () => {
    const started = Date.now();
    const answer = await trickle(
      port,
      ['POST /upload HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 1\r\n', 'X-C: 1\r\n'],
      600,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('answers 408 when an upload body trickles past the request limit, and serves a prompt one', async () => {
    const head = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n';
    const slow = await trickle(port, [head, ...Array.from({ length: 10 }, () => 'x'.repeat(10))], 500);
    expect(slow).toMatch(/^HTTP\/1\.1 408/);
    const prompt = await trickle(port, [`${head}${'x'.repeat(100)}`], 0).catch(() => '');
    expect(prompt).toMatch(/^HTTP\/1\.1 200[\s\S]*stored/);
  }, 15_000);
});
