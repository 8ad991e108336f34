import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { csrfHeaders, cookieHeader, verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { updateSetting } from '../catalog';
import { startJobEvents } from '../jobs/job-events';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { UPLOAD_MESSAGES } from '../uploads';
import {
  animatedPng,
  animatedWebp,
  gifImage,
  jpegWithExif,
  pixelBombPng,
  solidImage,
  svgImage,
} from '../uploads/test-images';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  // Only background removal and generation: upscaling has no live worker in this file.
  worker = await workerFor(t, { tools: ['remove-background', 'generate'] });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

describe('server messages in the request language', () => {
  it('answers upload checks and the 402 in German for a lang_id form field or Accept-Language', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const gif = await gifImage();
    const byField = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'de')
      .attach('image', gif, 'a.gif')
      .expect(422);
    expect(byField.body.message).toBe('Es werden nur JPEG-, PNG-, WebP-, AVIF-, TIFF- und HEIC-Bilder akzeptiert.');
    const byHeader = await agent
      .post('/api/tools/remove-background')
      .set('Accept-Language', 'de-CH, en;q=0.5')
      .attach('image', gif, 'a.gif')
      .expect(422);
    expect(byHeader.body.message).toBe('Es werden nur JPEG-, PNG-, WebP-, AVIF-, TIFF- und HEIC-Bilder akzeptiert.');
    const english = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'en')
      .set('Accept-Language', 'de')
      .attach('image', gif, 'a.gif')
      .expect(422);
    expect(english.body.message).toBe(UPLOAD_MESSAGES.wrongType);
    // The balance is checked before the body is read, so its language comes from the query or the header.
    const empty = await verifiedUser(t, { balanceTokens: 0 });
    for (const req of [
      empty.agent.post('/api/tools/remove-background?lang_id=de'),
      empty.agent.post('/api/tools/remove-background').set('Accept-Language', 'de'),
    ]) {
      const short = await req.attach('image', await solidImage('png'), 'a.png').expect(402);
      expect(short.body.message).toMatch(/^Nicht genügend Tokens/);
    }
  });

  it('never shows zod wording: a bad page number gets a plain sentence, translated', async () => {
    const { agent } = await verifiedUser(t);
    const res = await agent.get('/api/jobs?page=-1').expect(422);
    expect(res.body.errors.page).toEqual(['Must be at least 1.']);
    expect(res.body.message).toBe('Must be at least 1.');
    const de = await agent.get('/api/jobs?page=-1&lang_id=de').expect(422);
    expect(de.body.errors.page).toEqual(['Muss mindestens 1 sein.']);
    const text = await agent.get('/api/jobs?page=abc').expect(422);
    expect(text.body.message).not.toMatch(/expected|received|Invalid input/i);
  });
});

describe('POST /api/tools/remove-background', () => {
  it('stores the input without metadata under inputs/<userId>/<jobId>/ and runs the job', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 2 });
    const res = await agent
      .post('/api/tools/remove-background')
      .field('output_format', 'webp')
      .field('background_color', '#ffffff')
      .attach('image', await jpegWithExif(), { filename: 'photo.png', contentType: 'image/png' })
      .expect(202);
    const job = res.body.payload as JobView;
    expect(job.params).toEqual({ output_format: 'webp', background_color: '#ffffff', mask_only: false });
    const row = await t.ctx.db('image_jobs').where({ id: job.id }).first();
    expect(row.input_key).toBe(`inputs/${user.id}/${job.id}/input.jpg`);
    const stored = await t.ctx.storage.get(row.input_key);
    expect(stored.includes(Buffer.from('SecretCam'))).toBe(false);
    expect((await sharp(stored).metadata()).format).toBe('jpeg');
    expect(job.input_name).toBe('photo.png');
    expect([row.input_width, row.input_height]).toEqual([expect.any(Number), expect.any(Number)]);
    const done = await waitForStatus(agent, job.id, ['succeeded']);
    expect(done.input_url).toContain(`inputs/${user.id}/${job.id}/`);
    // The download is named after the upload.
    expect(decodeURIComponent(done.results[0]!.url)).toContain(
      `filename="photo-no-background.${done.results[0]!.format}"`,
    );
    expect((await money(t, user.id)).balance).toBe(10);
    // With a finished run to learn from, the next job comes with an estimate of the time it needs.
    const next = await agent
      .post('/api/tools/remove-background')
      .attach('image', await jpegWithExif(), { filename: 'photo.png', contentType: 'image/png' })
      .expect(202);
    expect((next.body.payload as JobView).eta_seconds).toEqual(expect.any(Number));
    await waitForStatus(agent, (next.body.payload as JobView).id, ['succeeded']);
  });

  it('refuses every hostile or broken file with a 4xx and charges nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const png = await solidImage('png', 200, 150);
    const cases: Array<[string, Buffer, string]> = [
      ['empty', Buffer.alloc(0), UPLOAD_MESSAGES.empty],
      ['truncated', png.subarray(0, Math.floor(png.length / 2)), UPLOAD_MESSAGES.damaged],
      [
        'polyglot',
        Buffer.concat([png, Buffer.from('PK\u0003\u0004<html><script>x</script></html>')]),
        UPLOAD_MESSAGES.extraData,
      ],
      ['gif', await gifImage(), UPLOAD_MESSAGES.wrongType],
      ['svg', svgImage, UPLOAD_MESSAGES.wrongType],
      ['bomb', pixelBombPng(20_000), UPLOAD_MESSAGES.tooManyPixels],
      ['animated webp', await animatedWebp(), UPLOAD_MESSAGES.animated],
      ['apng', await animatedPng(), UPLOAD_MESSAGES.animated],
    ];
    for (const [name, bytes, message] of cases) {
      const started = performance.now();
      const res = await agent
        .post('/api/tools/remove-background')
        .attach('image', bytes, { filename: `${name}.png`, contentType: 'image/png' });
      expect({ name, status: res.status, message: res.body.message }).toEqual({ name, status: 422, message });
      // Refused from its header: decoding 400 MP would take far longer (and ~1.6 GB); the bound leaves room for a busy machine.
      if (name === 'bomb') expect(performance.now() - started).toBeLessThan(5000);
    }
    const missing = await agent.post('/api/tools/remove-background').field('output_format', 'png').expect(422);
    expect(missing.body.errors.image).toEqual(['Please choose an image to upload.']);
    const m = await money(t, user.id);
    expect(m.balance).toBe(50);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
  });

  it('answers 413 to a body over 20 MB without reading it all', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    // A declared length over the limit is refused before any byte of the body is read.
    const server = http.createServer(t.app);
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );
    const headers = await csrfHeaders(agent);
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/tools/remove-background',
          headers: {
            ...headers,
            Cookie: cookieHeader(agent),
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': String(200 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n');
      // The rest of the 200 MB is never sent: the server must answer without waiting for it.
    });
    server.closeAllConnections();
    server.close();
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toMatchObject({ code: 'payload_too_large', message: UPLOAD_MESSAGES.tooLarge });

    // Without a declared length (chunked), the stream is cut at 20 MB.
    const big = Buffer.concat([await solidImage('png', 8, 8), Buffer.alloc(21 * 1024 * 1024, 1)]);
    const res = await agent
      .post('/api/tools/remove-background')
      .attach('image', big, 'big.png')
      .catch((err: { status?: number; response?: { status: number } }) => err.response ?? err);
    expect(res.status).toBe(413);
  });
});

describe('POST /api/tools/upscale', () => {
  it('answers 503 naming the tool, before charging, when no live worker can upscale', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/upscale')
      .field('factor', '2')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(503);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'tool_unavailable',
      message: 'Upscaling is not available right now.',
    });
    expect((await money(t, user.id)).balance).toBe(50);
    const status = await agent.get('/api/tools/status').expect(200);
    expect(status.body.payload.upscale).toEqual({ available: false, provider: null, models: [] });
    expect(status.body.payload['remove-background'].available).toBe(true);
    // A guest reads the same status: the public pages speak only of what runs.
    const guest = await t.agent().get('/api/tools/status').expect(200);
    expect(guest.body.payload).toEqual(status.body.payload);
  });

  it('refuses an output over 64 MP with the limit in the message, and an unknown factor', async () => {
    const up = await workerFor(t, { tools: ['upscale'] });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
      const wide = await solidImage('jpeg', 2100, 2000);
      const res = await agent
        .post('/api/tools/upscale')
        .field('factor', '4')
        .attach('image', wide, 'wide.jpg')
        .expect(422);
      expect(res.body.message).toContain('64 megapixels');
      expect(res.body.message).toContain('2048x2048');
      await agent
        .post('/api/tools/upscale')
        .field('factor', '3')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      const ok = await agent
        .post('/api/tools/upscale')
        .field('factor', '4')
        .field('output_format', 'jpeg')
        .attach('image', await solidImage('png', 300, 200), 'a.png')
        .expect(202);
      expect(ok.body.payload.params).toEqual({ factor: 4, model: 'photo', output_format: 'jpeg' });
      await waitForStatus(agent, ok.body.payload.id, ['succeeded']);
      expect((await money(t, user.id)).balance).toBe(40);
    } finally {
      await up.close();
    }
  });
});

describe('upscaling models', () => {
  it('lists the models live workers run, refuses unknown or unavailable ones with 422 before charging, prices per model', async () => {
    const up = await workerFor(t, { tools: ['upscale'], models: { upscale: ['fast', 'photo'] } });
    const gpu = await workerFor(t, { tools: ['upscale'], models: { upscale: ['illustration', 'photo'] } });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const status = await agent.get('/api/tools/status').expect(200);
      expect(status.body.payload.upscale).toEqual({
        available: true,
        provider: 'cpu',
        models: ['photo', 'illustration', 'fast'],
      });
      expect(status.body.payload['remove-background'].models).toEqual([]);

      const unknown = await agent
        .post('/api/tools/upscale')
        .field('factor', '2')
        .field('model', 'best')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      expect(unknown.body.errors).toEqual({ model: ['Model must be one of photo, illustration, fast, photo-max.'] });
      const unavailable = await agent
        .post('/api/tools/upscale')
        .field('factor', '2')
        .field('model', 'photo-max')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      expect(unavailable.body.errors).toEqual({
        model: ['This model is not available right now. Please choose another one.'],
      });
      expect((await money(t, user.id)).balance).toBe(100);

      // Default: every model costs upscale_price; a model priced apart costs its own price.
      expect(
        (await agent.get('/api/tools/quote?tool=upscale&factor=2&model=illustration').expect(200)).body.payload,
      ).toMatchObject({ model: 'illustration', unit_price: 1, cost: 1 });
      await updateSetting(t.ctx, 'upscale_model_prices', { illustration: 2.5 });
      expect(
        (await agent.get('/api/tools/quote?tool=upscale&factor=2&model=illustration').expect(200)).body.payload,
      ).toMatchObject({ model: 'illustration', unit_price: 2.5, cost: 2.5 });
      expect((await agent.get('/api/tools/quote?tool=upscale&factor=2').expect(200)).body.payload).toMatchObject({
        model: 'photo',
        cost: 1,
      });
      const ok = await agent
        .post('/api/tools/upscale')
        .field('factor', '2')
        .field('model', 'illustration')
        .attach('image', await solidImage('png', 64, 64), 'a.png')
        .expect(202);
      expect(ok.body.payload.params).toEqual({ factor: 2, model: 'illustration', output_format: 'png' });
      await waitForStatus(agent, ok.body.payload.id, ['succeeded']);
      expect((await money(t, user.id)).balance).toBe(75);
      const history = await agent.get('/api/jobs?tool=upscale').expect(200);
      expect(history.body.payload.items.find((j: JobView) => j.id === ok.body.payload.id)?.params.model).toBe(
        'illustration',
      );
    } finally {
      await updateSetting(t.ctx, 'upscale_model_prices', {});
      await up.close();
      await gpu.close();
    }
  });
});

describe('submission rate limit', () => {
  it('answers 429 past JOB_SUBMIT_RATE_PER_MINUTE submissions in a minute', async () => {
    const limited = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '3' });
    const w = await workerFor(limited, { behaviour: 'noop' });
    try {
      const { agent } = await verifiedUser(limited, { balanceTokens: 10 });
      for (let i = 0; i < 3; i += 1)
        await agent
          .post('/api/tools/generate')
          .send({ prompt: `p${i}`, size: '1024x1024' })
          .expect(202);
      const res = await agent.post('/api/tools/generate').send({ prompt: 'p4', size: '1024x1024' }).expect(429);
      expect(res.body.code).toBe('rate_limited');
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      await w.close();
      await limited.close();
    }
  });
});
