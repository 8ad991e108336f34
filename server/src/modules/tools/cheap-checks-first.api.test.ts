import http from 'node:http';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { localServer, type LocalServer } from '../../test/local-server';
import type { TestWorker } from '../../test/test-worker';
import { workerFor } from '../jobs/jobs.test-support';
import { keyHolder } from '../removebg-compat/removebg.test-support';
import { solidImage } from '../uploads/test-images';

/**
 * Cheap checks before expensive ones: a call the balance cannot pay for is refused (402) before its image is
 * read, downloaded or decoded. A damaged image proves the order: decoding first would answer 422.
 */

let t: TestContext;
let worker: TestWorker;
let images: LocalServer;
const fetched: string[] = [];
let png: Buffer;
/** A PNG signature and header followed by nothing: any decode of it fails. */
const damaged = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', IMAGE_URL_ALLOW_HOSTS: '127.0.0.1' });
  // A worker offers the tools, so a paying call gets past the availability check to the image checks.
  worker = await workerFor(t, { tools: ['remove-background', 'upscale'] });
  png = await solidImage('png', 64, 48);
  images = localServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    fetched.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
  });
  await images.listen();
});

afterAll(async () => {
  await images.close();
  await worker.close();
  await t.close();
});

describe('the balance is checked before the image', () => {
  it('answers 402 to an empty account before reading or decoding its upload', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 0 });
    for (const tool of ['remove-background', 'upscale']) {
      const res = await agent.post(`/api/tools/${tool}`).attach('image', damaged, 'photo.png').expect(402);
      expect(res.body.code).toBe('insufficient_tokens');
    }
    // With tokens, the same file reaches the image checks.
    const paying = await verifiedUser(t, { balanceTokens: 5 });
    await paying.agent.post('/api/tools/remove-background').attach('image', damaged, 'photo.png').expect(422);
  });

  it('answers 402 on /v1.0/removebg before decoding a file or downloading an image_url', async () => {
    const { key } = await keyHolder(t, 0);
    const file = await t.agent().post('/v1.0/removebg').set('X-Api-Key', key).attach('image_file', damaged, 'a.png');
    expect([file.status, file.body.errors?.[0]?.code]).toEqual([402, 'insufficient_credits']);
    const url = await t
      .agent()
      .post('/v1.0/removebg')
      .set('X-Api-Key', key)
      .send({ image_url: images.url('/photo.png'), size: 'full' });
    expect([url.status, url.body.errors?.[0]?.code]).toEqual([402, 'insufficient_credits']);
    expect(fetched).toEqual([]);
  });

  it("checks this call's size on /v1.0/removebg before downloading: enough for a preview is not enough for full", async () => {
    const { key } = await keyHolder(t, 0.3);
    const full = await t
      .agent()
      .post('/v1.0/removebg')
      .set('X-Api-Key', key)
      .send({ image_url: images.url('/full.png'), size: 'full' });
    expect(full.status).toBe(402);
    expect(fetched).toEqual([]);
  });
});
