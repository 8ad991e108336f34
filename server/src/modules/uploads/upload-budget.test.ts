import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Response } from 'express';
import { loadConfig } from '../../config';
import { createTestContext, type TestContext } from '../../test/harness';
import { cookieHeader, verifiedUser, xsrfCookie } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { money, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from './test-images';
import { sweepStaleUploads } from './upload-budget-setup';
import { UPLOAD_BUSY_MESSAGE, UPLOAD_MESSAGES_FLOW, UploadBudget, UploadSession } from './upload-budget';

/** A response that only closes (the budget listens for nothing else). */
const closable = () => new EventEmitter() as unknown as Response;

const limits = (over: Partial<UploadBudget['limits']> = {}): UploadBudget['limits'] => ({
  diskBytes: 100,
  perUser: 2,
  perKey: 8,
  minBytesPerSecond: 16 * 1024,
  rateWindowMs: 30_000,
  tmpDir: path.join(os.tmpdir(), 'imagestudio-uploads-test'),
  ...over,
});

function opened(budget: UploadBudget, userId: string, res: Response, first = 0): UploadSession {
  const session = budget.open(userId, res, first);
  if (!(session instanceof UploadSession)) throw new Error(`not opened: ${session}`);
  return session;
}

describe('UploadBudget', () => {
  it('reserves what arrives, not what is declared; refuses what would pass the limit; always lets one upload in', () => {
    const budget = new UploadBudget(limits());
    const first = closable();
    const a = opened(budget, 'u1', first, 10);
    // The first reservation is used up by the first bytes written, then the reservation grows with them.
    expect(a.reserve(5)).toBe(true);
    expect(budget.reservedBytes).toBe(10);
    expect(a.reserve(60)).toBe(true);
    expect(budget.reservedBytes).toBe(65);
    const second = closable();
    const b = opened(budget, 'u2', second);
    expect(b.reserve(40)).toBe(false);
    expect(b.reserve(35)).toBe(true);
    expect(budget.reservedBytes).toBe(100);
    // A full budget refuses a new upload before it reads anything.
    expect(budget.open('u3', closable(), 1)).toBe('busy');
    first.emit('close');
    expect(budget.reservedBytes).toBe(35);
    second.emit('close');
    // Nothing else held: even an upload larger than the whole budget is let in, and given back afterwards.
    const big = closable();
    expect(opened(budget, 'u1', big).reserve(500)).toBe(true);
    big.emit('close');
    expect(budget.reservedBytes).toBe(0);
  });

  it('lets a user have two uploads in flight, and a third once one has ended', () => {
    const budget = new UploadBudget(limits({ diskBytes: 1000 }));
    const one = closable();
    opened(budget, 'u1', one);
    opened(budget, 'u1', closable());
    expect(budget.open('u1', closable(), 0)).toBe('per_user');
    // Other users are not affected.
    expect(budget.open('u2', closable(), 0)).toBeInstanceOf(UploadSession);
    one.emit('close');
    expect(budget.open('u1', closable(), 0)).toBeInstanceOf(UploadSession);
  });

  it('claims one archive check per user at a time', () => {
    const budget = new UploadBudget(limits({ diskBytes: 1000 }));
    const res = closable();
    const a = opened(budget, 'u1', res);
    const b = opened(budget, 'u1', closable());
    expect(a.claimArchive()).toBe(true);
    expect(b.claimArchive()).toBe(false);
    expect(opened(budget, 'u2', closable()).claimArchive()).toBe(true);
    res.emit('close');
    expect(b.claimArchive()).toBe(true);
  });

  it('removes the temporary files when the response closes', async () => {
    const budget = new UploadBudget(limits());
    const res = closable();
    const session = opened(budget, 'u1', res);
    const file = await session.tempPath();
    fs.writeFileSync(file, 'x');
    res.emit('close');
    // The removal is asynchronous: a loaded machine takes more than a moment.
    for (let i = 0; i < 100 && fs.existsSync(path.dirname(file)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('sweeps away upload folders a killed API left behind, and only old ones', async () => {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-sweep-'));
    const old = path.join(tmpDir, 'upload-old');
    const fresh = path.join(tmpDir, 'upload-fresh');
    for (const dir of [old, fresh]) fs.mkdirSync(dir);
    fs.writeFileSync(path.join(old, '1'), 'x');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(old, hourAgo, hourAgo);
    expect(await sweepStaleUploads(tmpDir)).toBe(1);
    expect(fs.readdirSync(tmpDir)).toEqual(['upload-fresh']);
    fs.rmSync(tmpDir, { recursive: true });
  });

  it('ends a body slower than the minimum rate once a whole window has passed, and not a steady one', async () => {
    const budget = new UploadBudget(limits({ diskBytes: 1e9, minBytesPerSecond: 1000, rateWindowMs: 400 }));
    const slow = opened(budget, 'u1', closable());
    const fast = opened(budget, 'u2', closable());
    let slowEnded = 0;
    let fastEnded = false;
    const started = Date.now();
    slow.watchRate(() => (slowEnded = Date.now() - started));
    fast.watchRate(() => (fastEnded = true));
    const feeder = setInterval(() => {
      slow.count(10); // 200 B/s
      fast.count(200); // 4 KB/s
    }, 50);
    await new Promise((r) => setTimeout(r, 1500));
    clearInterval(feeder);
    fast.stopWatching();
    expect(slowEnded).toBeGreaterThanOrEqual(400);
    // One window and a tick or two (more on a loaded machine), far from the next window.
    expect(slowEnded).toBeLessThan(1200);
    expect(fastEnded).toBe(false);
  });

  it('defaults to the limits of the issue: 16 KB/s over 30 s, 2 uploads per user', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config).toMatchObject({ UPLOAD_MIN_RATE_KB_S: 16, UPLOAD_RATE_WINDOW_S: 30, UPLOAD_MAX_PER_USER: 2 });
  });
});

describe('uploads while the upload budget is taken', () => {
  let t: TestContext;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', UPLOAD_DISK_MB: '1' });
    png = await solidImage('png', 16, 16);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers 503 with Retry-After before reading or charging, in the request language, and accepts once it is free', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const budget = t.ctx.services.uploadBudget;
    // Another upload holds almost all of the 1 MB.
    const other = closable();
    expect(opened(budget, 'someone-else', other, 1024 * 1024 - 100)).toBeInstanceOf(UploadSession);

    const single = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(single.status).toBe(503);
    expect(single.headers['retry-after']).toBe('30');
    expect(single.body).toEqual({ status: 'ERROR', code: 'service_unavailable', message: UPLOAD_BUSY_MESSAGE });
    // The body is never read, so the language comes from the query (or Accept-Language), not a form field.
    const batch = await agent
      .post('/api/batches?lang_id=de')
      .field('tool', 'upscale')
      .attach('images', png, 'a.png')
      .attach('images', png, 'b.png');
    expect(batch.status).toBe(503);
    expect(batch.body.message).toBe(
      'Gerade treffen zu viele große Uploads ein. Bitte versuchen Sie es in einer Minute erneut.',
    );
    expect((await money(t, user.id)).balance).toBe(50);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
    // Refused requests gave nothing back that they had not taken.
    expect(budget.reservedBytes).toBe(1024 * 1024 - 100);

    other.emit('close');
    // No worker runs in this test: a form that got past the budget reaches the availability check.
    const after = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(after.body.code).toBe('tool_unavailable');
    expect(budget.reservedBytes).toBe(0);
  });

  it('counts the bytes as they arrive: a body that outgrows the free room mid-way is a 503', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const budget = t.ctx.services.uploadBudget;
    const other = closable();
    opened(budget, 'someone-else', other, 512 * 1024);
    // A declared length is taken at its word only up to 64 KB; 700 KB of file then passes the 1 MB.
    const res = await agent
      .post('/api/batches')
      .field('tool', 'upscale')
      .attach('images', Buffer.alloc(700 * 1024, 1), 'big.png')
      .catch((err: { response?: { status: number; body: unknown } }) => err.response);
    expect(res?.status).toBe(503);
    other.emit('close');
    await new Promise((r) => setTimeout(r, 50));
    expect(budget.reservedBytes).toBe(0);
  });

  it('answers a third upload of one user with 429 and Retry-After, before reading it', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const budget = t.ctx.services.uploadBudget;
    const held = [closable(), closable()];
    for (const res of held) opened(budget, user.id, res);
    const third = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('30');
    expect(third.body).toMatchObject({ code: 'rate_limited', message: UPLOAD_MESSAGES_FLOW.perUser(2) });
    for (const res of held) res.emit('close');
    const after = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(after.body.code).toBe('tool_unavailable');
  });

  it('reads a refused body to its end while it keeps arriving, so a client still sending gets its 429, not EPIPE', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const budget = t.ctx.services.uploadBudget;
    const held = [closable(), closable()];
    for (const res of held) opened(budget, user.id, res);
    // 4 MB at about 1 MB/s: longer than the 2 s a refused body used to be read for.
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    const errors: string[] = [];
    let answer = '';
    socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(
      'POST /api/tools/upscale HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Cookie: ${cookieHeader(agent)}\r\nX-XSRF-TOKEN: ${xsrfCookie(agent)!}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${16 * chunk.length}\r\n\r\n`,
    );
    for (let i = 0; i < 16 && !socket.destroyed; i++) {
      socket.write(chunk);
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 300));
    socket.end();
    await closed;
    expect(errors).toEqual([]);
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
    for (const res of held) res.emit('close');
    await new Promise((r) => server.close(r));
  });
});

/**
 * Sends a multipart upload declaring 200 MB, then one byte every `everyMs`; resolves with the reply's status
 * line and when it came (or when the server closed the connection).
 */
function trickle(port: number, headers: Record<string, string>, everyMs: number) {
  const boundary = 'trickleboundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="tool"\r\n\r\nremove-background\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="slow.png"\r\n` +
    'Content-Type: image/png\r\n\r\n';
  const started = Date.now();
  // ms: when the answer came; closedMs: when the connection ended (the server drops what still arrives after an
  // answer for a moment, then cuts the connection: a trickle that goes on sending is cut off).
  return new Promise<{ status: string; ms: number; closedMs: number }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let answeredMs = Infinity;
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write('x');
    }, everyMs);
    const end = () => {
      clearInterval(timer);
      resolve({ status: answer.split('\r\n')[0] ?? '', ms: answeredMs, closedMs: Date.now() - started });
    };
    socket.on('data', (chunk) => {
      if (answer === '') answeredMs = Date.now() - started;
      answer += chunk.toString('latin1');
    });
    socket.on('close', end);
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /api/batches HTTP/1.1',
        'Host: 127.0.0.1',
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${200 * 1024 * 1024}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        head,
      ].join('\r\n'),
    );
  });
}

describe('slow uploads', () => {
  const WINDOW_S = 3;
  let t: TestContext;
  let worker: TestWorker;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    // The 30 s window scaled down to 3 s so the test runs in seconds; the defaults are checked above.
    t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', UPLOAD_RATE_WINDOW_S: String(WINDOW_S) });
    worker = await workerFor(t);
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await worker.close();
    await t.close();
  });

  it("three trickling uploads leave another user's upload answering 202 within 2 s, and each trickle ends in time", async () => {
    const attacker = await verifiedUser(t, { balanceTokens: 50 });
    const headers = { Cookie: cookieHeader(attacker.agent), 'X-XSRF-TOKEN': xsrfCookie(attacker.agent)! };
    const trickles = [0, 1, 2].map(() => trickle(port, headers, 300));
    await new Promise((r) => setTimeout(r, 500));

    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const started = Date.now();
    const res = await agent.post('/api/tools/remove-background').attach('image', await solidImage('png'), 'ok.png');
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(2000);

    const ended = await Promise.all(trickles);
    // Two uploads per user: the third is refused at once; the other two end when a window shows them too slow
    // (45 s for the default 30 s window: 1.5 windows).
    const statuses = ended.map((e) => e.status).sort();
    expect(statuses).toEqual([
      'HTTP/1.1 408 Request Timeout',
      'HTTP/1.1 408 Request Timeout',
      'HTTP/1.1 429 Too Many Requests',
    ]);
    for (const e of ended) expect(e.ms).toBeLessThan(1.5 * WINDOW_S * 1000);
    // A trickle that keeps sending after its answer is cut off a moment later (once a second brings under 64 KB).
    for (const e of ended) expect(e.closedMs - e.ms).toBeLessThan(3000);
    expect(ended.find((e) => e.status.includes('429'))!.ms).toBeLessThan(1000);
    // Everything they held is given back.
    await new Promise((r) => setTimeout(r, 100));
    expect(t.ctx.services.uploadBudget.reservedBytes).toBe(0);
    expect(t.ctx.services.uploadBudget.inFlight(attacker.user.id)).toBe(0);
    expect((await money(t, attacker.user.id)).balance).toBe(500);
    // The operator sees them counted by reason (and one warning each in the log).
    const counted = await t.ctx.metrics.registry.getSingleMetricAsString('upload_refusals_total');
    expect(counted).toContain('upload_refusals_total{reason="too_slow"} 2');
    expect(counted).toContain('upload_refusals_total{reason="per_user"} 1');
  }, 30_000);
});
