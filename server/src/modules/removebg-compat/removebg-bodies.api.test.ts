import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer, type LocalServer } from '../../test/local-server';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';
import { keyHolder } from './removebg.test-support';

/**
 * JSON and urlencoded bodies to /v1.0 are uploads like multipart ones (one body pipeline): in flight per key, the
 * upload budget, the minimum rate, a size cap, a large body parsed off the event loop. /v1.0/improve reads nothing,
 * and a small /api body must arrive within HTTP_BODY_TIMEOUT_MS.
 */

let t: TestContext;
let server: LocalServer;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    API_KEY_RATE_PER_MINUTE: '1000',
    UPLOAD_MAX_PER_API_KEY: '2',
    UPLOAD_MIN_RATE_KB_S: '16',
    UPLOAD_RATE_WINDOW_S: '1',
    UPLOAD_DISK_MB: '1',
    HTTP_BODY_TIMEOUT_MS: '1000',
  });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  server = localServer(t.app);
  await server.listen();
});

afterAll(async () => {
  await server.close();
  await worker.close();
  await stopEvents();
  await t.close();
});

interface Held {
  /** The status of an answer that came while the body was still unfinished, or null. */
  answered: Promise<number | null>;
  req: http.ClientRequest;
}

/** Starts a POST whose body announces `length` bytes and sends only `first`; the caller ends or drops it. */
function unfinished(path: string, headers: Record<string, string>, length: number, first: string): Held {
  const { port } = server.server.address() as AddressInfo;
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers },
  });
  req.on('error', () => undefined);
  const answered = new Promise<number | null>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    setTimeout(() => resolve(null), 600);
  });
  req.write(first);
  return { answered, req };
}

const statusWithin = (held: Held, ms: number) =>
  new Promise<number | null>((resolve) => {
    held.req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    setTimeout(() => resolve(null), ms);
  });

describe('JSON and urlencoded bodies on /v1.0/removebg', () => {
  it('count against the key in-flight limit like multipart uploads', async () => {
    const { key } = await keyHolder(t, 10);
    const headers = { 'X-Api-Key': key };
    const held = [0, 1].map(() => unfinished('/v1.0/removebg', headers, 200_000, '{"image_file_b64":"'));
    expect(await Promise.all(held.map((h) => h.answered))).toEqual([null, null]);
    const third = unfinished('/v1.0/removebg', headers, 200_000, '{"image_file_b64":"');
    expect(await third.answered).toBe(429);
    for (const h of [...held, third]) h.req.destroy();
  });

  it('end with 408 when the body trickles below the minimum rate', async () => {
    const { key } = await keyHolder(t, 10);
    const trickle = unfinished('/v1.0/removebg', { 'X-Api-Key': key }, 200_000, '{"image_file_b64":"');
    const drip = setInterval(() => trickle.req.write('AAAA'), 100);
    const status = await statusWithin(trickle, 5000);
    clearInterval(drip);
    trickle.req.destroy();
    expect(status).toBe(408);
  });

  it("are refused past the size cap before they are read (remove.bg's 400 file_too_large)", async () => {
    const { key } = await keyHolder(t, 10);
    const huge = unfinished('/v1.0/removebg', { 'X-Api-Key': key }, 40 * 1024 * 1024, '{');
    expect(await statusWithin(huge, 3000)).toBe(400);
    huge.req.destroy();
  });

  it('count against the upload budget: a second large body while one holds it is a 503', async () => {
    const a = await keyHolder(t, 10);
    const b = await keyHolder(t, 10);
    // The first holds about 1 MB of the 1 MB budget (a body alone in the budget is always let in).
    const first = unfinished(
      '/v1.0/removebg',
      { 'X-Api-Key': a.key },
      3_000_000,
      `{"image_file_b64":"${'A'.repeat(1_100_000)}`,
    );
    expect(await first.answered).toBeNull();
    const second = unfinished(
      '/v1.0/removebg',
      { 'X-Api-Key': b.key },
      3_000_000,
      `{"image_file_b64":"${'A'.repeat(200_000)}`,
    );
    expect(await statusWithin(second, 3000)).toBe(503);
    for (const h of [first, second]) h.req.destroy();
  });

  it('still read a whole JSON body with a large base64 image (parsed in a thread of its own)', async () => {
    const { key } = await keyHolder(t, 10);
    const png = await solidImage('png', 700, 700);
    // Past the inline-parse size (256 KB): the padding field makes it large, as a big base64 image would.
    const body = JSON.stringify({ image_file_b64: png.toString('base64'), size: 'preview', pad: 'x'.repeat(400_000) });
    const res = await fetch(server.url('/v1.0/removebg'), {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { data: { result_b64: string } };
    expect(json.data.result_b64.length).toBeGreaterThan(100);
  });
});

/** The sizes of the spooled bodies (`*.body`) in the API's upload folders now. */
async function spooledBodies(): Promise<number[]> {
  const root = t.ctx.services.uploadBudget.limits.tmpDir;
  const sizes: number[] = [];
  for (const dir of await fs.promises.readdir(root).catch(() => [] as string[]))
    for (const name of await fs.promises.readdir(path.join(root, dir)).catch(() => [] as string[]))
      if (name.endsWith('.body'))
        sizes.push((await fs.promises.stat(path.join(root, dir, name)).catch(() => ({ size: -1 }))).size);
  return sizes;
}

describe('a large JSON body is spooled to disk', () => {
  it('holds its received bytes in a file of the upload, not in memory, and removes it when the client goes', async () => {
    const { key } = await keyHolder(t, 10);
    const sent = `{"image_file_b64":"${'A'.repeat(1_000_000)}`;
    const held = unfinished('/v1.0/removebg', { 'X-Api-Key': key }, 3_000_000, sent);
    expect(await held.answered).toBeNull();
    // Everything received so far is in the file (the first 256 KB were kept in memory, then written out).
    for (let i = 0; i < 100 && !(await spooledBodies()).includes(sent.length); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await spooledBodies()).toContain(sent.length);
    held.req.destroy();
    for (let i = 0; i < 100 && (await spooledBodies()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await spooledBodies()).toEqual([]);
  });

  it("decodes the base64 image in the parsing thread: bad base64 there is remove.bg's invalid_file_type", async () => {
    const { key } = await keyHolder(t, 10);
    const body = JSON.stringify({ image_file_b64: `${'A'.repeat(400_000)}*!`, size: 'preview' });
    const res = await fetch(server.url('/v1.0/removebg'), {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('invalid_file_type');
  });
});

describe('bodies nobody needs, or that never end', () => {
  it('/v1.0/improve answers at once without reading the body', async () => {
    const { key } = await keyHolder(t, 1);
    const improve = unfinished('/v1.0/improve', { 'X-Api-Key': key, 'Content-Type': 'image/png' }, 30_000_000, 'x');
    expect(await statusWithin(improve, 3000)).toBe(200);
    improve.req.destroy();
  });

  it('a sign-in body trickled a byte at a time gets 408 after HTTP_BODY_TIMEOUT_MS', async () => {
    const login = unfinished('/api/login', {}, 200, '{"email":"');
    const drip = setInterval(() => login.req.write('a'), 100);
    const started = Date.now();
    const status = await statusWithin(login, 5000);
    clearInterval(drip);
    login.req.destroy();
    expect(status).toBe(408);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
