import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer, type LocalServer } from '../../test/local-server';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { waitFor, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';
import { balanceAndJobs, keyHolder } from './removebg.test-support';

/**
 * A remove.bg caller who hangs up is not charged, whenever it hangs up: while its image_url is still downloading
 * (no job is admitted), or while its job runs (the job is cancelled and refunded).
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let api: LocalServer;
let images: LocalServer;
let png: Buffer;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', IMAGE_URL_ALLOW_HOSTS: '127.0.0.1' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'], behaviour: 'slow', slowMs: 2000 });
  png = await solidImage('png', 64, 48);
  // An image host that takes a second to answer.
  images = localServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png' }).end(png), 1000);
  });
  await images.listen();
  api = localServer(t.app);
  await api.listen();
});

afterAll(async () => {
  await api.close();
  await images.close();
  await worker.close();
  await stopEvents();
  await t.close();
});

/** Posts to /v1.0/removebg and hangs up after `afterMs`. */
function hangUp(key: string, body: string, contentType: string, afterMs: number): Promise<void> {
  const { port } = api.server.address() as AddressInfo;
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/v1.0/removebg',
    method: 'POST',
    headers: { 'X-Api-Key': key, 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) },
  });
  req.on('error', () => undefined);
  req.end(body);
  return new Promise((resolve) =>
    setTimeout(() => {
      req.destroy();
      resolve();
    }, afterMs),
  );
}

describe('a remove.bg caller who hangs up', () => {
  it('while its image_url downloads: no job is admitted, nothing is charged', async () => {
    const { key, userId } = await keyHolder(t, 5);
    const before = await balanceAndJobs(t, userId);
    await hangUp(key, JSON.stringify({ image_url: images.url('/slow.png') }), 'application/json', 300);
    // Long enough for the download to end and a job to have been admitted and run.
    await new Promise((r) => setTimeout(r, 3500));
    expect(await balanceAndJobs(t, userId)).toEqual(before);
  });

  it('while its job runs: the job is cancelled and refunded', async () => {
    const { key, userId } = await keyHolder(t, 5);
    const before = await balanceAndJobs(t, userId);
    const body = JSON.stringify({ image_file_b64: png.toString('base64') });
    await hangUp(key, body, 'application/json', 800);
    const job = await waitFor(
      async () => {
        const row = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
        return row && ['cancelled', 'failed', 'succeeded'].includes(row.status) ? row : undefined;
      },
      10_000,
      'the job to end',
    );
    expect(job.refunded).toBe(true);
    expect((await balanceAndJobs(t, userId)).balance).toBe(before.balance);
  });
});
