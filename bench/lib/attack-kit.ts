import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { cookieString, mergeCookies } from './cookies';

/**
 * Tools of the attack section (bench/sections/attack.ts): a signed-in browser over fetch, raw requests whose body
 * is left unfinished, the API process's CPU time and memory from /proc, and a slow image server.
 */

/** One signed-in browser: its cookies and XSRF token, over Node's fetch. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  private constructor(readonly base: string) {}

  static async signIn(base: string, email: string, password: string): Promise<Browser> {
    const browser = new Browser(base);
    mergeCookies(browser.cookies, await fetch(`${base}/api/csrf`));
    const res = await browser.request('POST', '/api/login', { username: email, password });
    if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
    return browser;
  }

  get cookie(): string {
    return cookieString(this.cookies);
  }

  /** A request with the session's cookies and XSRF token; a plain object is sent as JSON. */
  async request(method: string, path: string, body?: FormData | Record<string, unknown>): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: this.cookie,
      'x-xsrf-token': decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? ''),
    };
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(60_000),
    });
    mergeCookies(this.cookies, res);
    return res;
  }
}

/** GET `url` and read the whole answer: its status and the time it took. */
export async function timedGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

export interface HeldRequest {
  req: http.ClientRequest;
  /** The status the server answered with (while the body was still being sent, or after), or null. */
  status(): number | null;
  /** Resolves with the status once answered, or null after `ms`. */
  answeredWithin(ms: number): Promise<number | null>;
  /** Milliseconds from the start to the answer, or null. */
  answeredAfterMs(): number | null;
}

/** Starts a POST that announces `length` bytes and sends `first`; the caller writes more, or drops it. */
export function heldRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  length: number,
  first: string | Buffer,
): HeldRequest {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  let status: number | null = null;
  let answeredAt: number | null = null;
  const waiters: Array<(s: number | null) => void> = [];
  const req = http.request({
    host: hostname,
    port: Number(port),
    path,
    method: 'POST',
    headers: { ...headers, 'Content-Length': String(length) },
  });
  req.on('error', () => undefined);
  req.on('response', (res) => {
    status = res.statusCode ?? null;
    answeredAt = performance.now();
    res.resume();
    for (const w of waiters.splice(0)) w(status);
  });
  req.write(first);
  return {
    req,
    status: () => status,
    answeredAfterMs: () => (answeredAt === null ? null : answeredAt - started),
    answeredWithin: (ms) =>
      status !== null
        ? Promise.resolve(status)
        : new Promise((resolve) => {
            waiters.push(resolve);
            setTimeout(() => resolve(status), ms);
          }),
  };
}

/** Writes `chunk` unless the request was answered or closed; resolves when the socket takes more. */
export function writeWhenReady(held: HeldRequest, chunk: Buffer | string): Promise<boolean> {
  if (held.status() !== null || held.req.destroyed) return Promise.resolve(false);
  if (held.req.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      held.req.off('drain', onDrain);
      held.req.off('close', onClose);
      clearInterval(poll);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    held.req.once('drain', onDrain);
    held.req.once('close', onClose);
    // A refusal answered while the body is still going out: stop writing.
    const poll = setInterval(() => {
      if (held.status() !== null) done(false);
    }, 50);
  });
}

/** CPU seconds (user + system) the process `pid` has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), counted from the state field (3rd).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks / 100; // USER_HZ is 100 on Linux
}

/**
 * Waits until the process `pid` has used under 0.1 CPU-s in a second (its writes have stopped); returns the
 * milliseconds waited, or throws after `maxMs`.
 */
export async function cpuSettled(pid: number, maxMs: number): Promise<number> {
  const started = performance.now();
  let last = cpuSeconds(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSeconds(pid);
    if (now - last < 0.1) return performance.now() - started;
    if (performance.now() - started > maxMs) throw new Error(`the API kept working for ${maxMs} ms`);
    last = now;
  }
}

/** Resident memory of `pid` in MiB, from /proc/<pid>/status. */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Samples the RSS of `pid` every 200 ms until stopped; returns the highest seen. */
export function rssPeak(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the process is gone
    }
  }, 200);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Opens GET `path` on a raw socket and reads nothing (the socket stays paused). */
export function unreadGet(base: string, path: string, cookie: string): net.Socket {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${cookie}\r\n\r\n`);
  return socket;
}

/**
 * Resumes an unread chunked download and reads what is left: `complete` when the last chunk came (the server
 * sent everything), otherwise the server ended the connection part-way (or it did not end within `ms`: `open`).
 */
export function drain(
  socket: net.Socket,
  ms: number,
): Promise<{ bytes: number; outcome: 'complete' | 'cut' | 'open' }> {
  return new Promise((resolve) => {
    let bytes = 0;
    let tail = '';
    const finish = (outcome: 'complete' | 'cut' | 'open') => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      socket.destroy();
      resolve({ bytes, outcome });
    };
    const timer = setTimeout(() => finish('open'), ms);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString('latin1')).slice(-16);
      if (tail.endsWith('\r\n0\r\n\r\n')) finish('complete');
    });
    socket.once('close', () => finish('cut'));
    if (socket.destroyed) finish('cut');
    else socket.resume();
  });
}

/** An HTTP server on loopback that sends `body` as an image in `pieces` parts, `gapMs` apart (a slow host). */
export async function slowImageServer(
  body: Buffer,
  pieces: number,
  gapMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(body.length) });
    const size = Math.ceil(body.length / pieces);
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(body.subarray(sent, sent + size));
      sent += size;
      if (sent >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, gapMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/photo.png`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
