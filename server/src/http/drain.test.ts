import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainHttpServer, registerOpenStream } from './drain';

/**
 * A stopping API on loopback: an upload in flight finishes, an event stream ends at once, an idle keep-alive
 * connection is closed, a new connection is refused; past the grace what is left is cut.
 */

function startServer(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 2000\n\n');
      const unregister = registerOpenStream(() => res.end());
      req.on('close', unregister);
      return;
    }
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.end(String(bytes)));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })),
  );
}

/** A POST whose body arrives in `chunks` pieces `everyMs` apart; resolves with the reply's body or the error code. */
function slowUpload(port: number, chunks: number, everyMs: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/upload', agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
      res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    let sent = 0;
    const timer = setInterval(() => {
      if (req.destroyed) return clearInterval(timer);
      req.write(Buffer.alloc(1000));
      sent += 1;
      if (sent === chunks) {
        clearInterval(timer);
        req.end();
      }
    }, everyMs);
  });
}

function get(port: number, path: string, agent: http.Agent | false = false): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get({ port, host: '127.0.0.1', path, agent }, resolve).on('error', reject);
  });
}

const ended = (res: http.IncomingMessage) =>
  new Promise<void>((resolve) => {
    res.resume();
    res.on('end', resolve);
    res.on('close', resolve);
  });

it('lets an upload in flight finish, ends event streams and idle connections at once, and refuses new ones', async () => {
  const { server, port } = await startServer();
  const keepAlive = new http.Agent({ keepAlive: true });
  const idle = await get(port, '/idle', keepAlive);
  const idleClosed = new Promise<void>((resolve) => idle.socket.once('close', () => resolve()));
  await ended(idle);
  const stream = await get(port, '/stream');
  const upload = slowUpload(port, 12, 100);
  await new Promise((r) => setTimeout(r, 250));

  const started = Date.now();
  const draining = drainHttpServer(server, 10_000);
  await ended(stream);
  expect(Date.now() - started).toBeLessThan(1000);
  await idleClosed;
  await expect(get(port, '/late')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

  expect(await upload).toBe('12000');
  expect(await draining).toEqual({ cut: false });
  expect(Date.now() - started).toBeLessThan(5000);
  keepAlive.destroy();
});

it('cuts what is still in flight when the grace is over', async () => {
  const { server, port } = await startServer();
  const upload = slowUpload(port, 50, 100);
  await new Promise((r) => setTimeout(r, 200));
  const started = Date.now();
  expect(await drainHttpServer(server, 300)).toEqual({ cut: true });
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(Date.now() - started).toBeLessThan(3000);
  expect(await upload).toMatch(/^(ECONNRESET|EPIPE|socket hang up|error)$/);
});
