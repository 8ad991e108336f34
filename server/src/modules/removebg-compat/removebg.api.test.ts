import http from 'node:http';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { inputFileKey } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer, type LocalServer } from '../../test/local-server';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { workerFor } from '../jobs/jobs.test-support';
import { gifImage, pixelBombPng, solidImage } from '../uploads/test-images';
import { balanceAndJobs, keyHolder, unverifiedKeyHolder } from './removebg.test-support';

/**
 * The remove.bg-compatible API against remove.bg's published description (https://www.remove.bg/api), in our
 * own words: every field, every error code, the replies and headers, on the real pipeline (Postgres, Redis,
 * S3, the queue and the test worker, which renders cut-outs through the real product-photo engine with the
 * input's own alpha as the matte).
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let images: LocalServer;
let png: Buffer;
let bigJpeg: Buffer;
/** 100x80, transparent but for an opaque 20x10 subject at (30, 40): the test worker takes its alpha as the matte. */
let subject: Buffer;

beforeAll(async () => {
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    IMAGE_URL_ALLOW_HOSTS: '127.0.0.1',
    REMOVEBG_SYNC_TIMEOUT_S: '2',
  });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  png = await solidImage('png', 64, 48);
  bigJpeg = await solidImage('jpeg', 1000, 800);
  const box = await sharp({ create: { width: 20, height: 10, channels: 4, background: '#c05028ff' } })
    .png()
    .toBuffer();
  subject = await sharp({ create: { width: 100, height: 80, channels: 4, background: '#00000000' } })
    .composite([{ input: box, left: 30, top: 40 }])
    .png()
    .toBuffer();
  // The image host of the image_url tests: /ok.png, /big.jpg, a 21 MB body, a 404, and redirect chains.
  const huge = Buffer.alloc(21 * 1024 * 1024, 1);
  images = localServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = req.url ?? '';
    if (url === '/ok.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
    if (url === '/big.jpg') return res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(bigJpeg);
    if (url === '/huge.png') return res.writeHead(200).end(huge);
    const hops = /^\/redirect\/(\d+)$/.exec(url);
    if (hops) {
      const n = Number(hops[1]);
      return res.writeHead(302, { Location: n > 1 ? `/redirect/${n - 1}` : '/ok.png' }).end();
    }
    res.writeHead(404).end('not here');
  });
  await images.listen();
});

afterAll(async () => {
  await images.close();
  await worker.close();
  await stopEvents();
  await t.close();
});

const post = (key?: string) => {
  const req = t.agent().post('/v1.0/removebg');
  return key ? req.set('X-Api-Key', key) : req;
};

describe('authentication', () => {
  it('answers 403 auth_failed without a key, with an unknown key, and never with a session or XSRF demand', async () => {
    const expected = { errors: [{ title: 'API Key invalid', code: 'auth_failed' }] };
    const none = await post().attach('image_file', png, 'a.png').expect(403);
    expect(none.body).toEqual(expected);
    const bad = await post('isk_live_not-a-key').attach('image_file', png, 'a.png').expect(403);
    expect(bad.body).toEqual(expected);
    const account = await t.agent().get('/v1.0/account').set('x-api-key', 'nope').expect(403);
    expect(account.body).toEqual(expected);
    expect(none.headers['set-cookie']).toBeUndefined();
  });

  it('takes the header in any letter case and refuses an unverified email', async () => {
    const { key } = await keyHolder(t);
    await t.agent().get('/v1.0/account').set('X-API-KEY', key).expect(200);
    const unverified = await unverifiedKeyHolder(t);
    const res = await t.agent().get('/v1.0/account').set('X-Api-Key', unverified.key).expect(403);
    expect(res.body.errors[0].code).toBe('email_not_verified');
  });

  it('sends the per-key rate-limit headers on every reply and 429 with Retry-After past the limit', async () => {
    const { key } = await keyHolder(t);
    const first = await t.agent().get('/v1.0/account').set('X-Api-Key', key).expect(200);
    const limit = Number(first.headers['x-ratelimit-limit']);
    expect(limit).toBe(t.config.API_KEY_RATE_PER_MINUTE);
    expect(Number(first.headers['x-ratelimit-remaining'])).toBe(limit - 1);
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    for (let i = 1; i < limit; i += 1) await t.agent().get('/v1.0/account').set('X-Api-Key', key).expect(200);
    const over = await t.agent().get('/v1.0/account').set('X-Api-Key', key).expect(429);
    expect(over.body.errors[0].code).toBe('rate_limit_exceeded');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('refusals: 400 with remove.bg codes, nothing charged', () => {
  // Every row has all four values: jest hands a test function with more parameters than its row a `done` callback.
  type Case = [name: string, fields: Record<string, string>, code: string, file: 'png' | 'gif' | 'bomb' | null];
  const cases: Case[] = [
    ['no source', {}, 'missing_source', null],
    ['two sources', { image_url: 'https://example.com/a.png' }, 'multiple_sources', 'png'],
    ['file and base64', { image_file_b64: 'aGVsbG8=' }, 'multiple_sources', 'png'],
    ['unknown size', { size: '8k' }, 'invalid_size', 'png'],
    ['unknown format', { format: 'gif' }, 'invalid_format', 'png'],
    ['unknown type', { type: 'spaceship' }, 'invalid_type', 'png'],
    ['unknown type_level', { type_level: '3' }, 'invalid_type_level', 'png'],
    ['unknown channels', { channels: 'rgb' }, 'invalid_channels', 'png'],
    ['bad colour name', { bg_color: 'notacolour' }, 'invalid_bg_color', 'png'],
    ['five hex digits', { bg_color: '12345' }, 'invalid_bg_color', 'png'],
    [
      'colour and image URL',
      { bg_color: 'fff', bg_image_url: 'https://example.com/b.png' },
      'multiple_bg_sources',
      'png',
    ],
    ['three margins', { crop: 'true', crop_margin: '10px 20px 30px' }, 'invalid_crop_margin', 'png'],
    ['margin of 50%', { crop: 'true', crop_margin: '50%' }, 'invalid_crop_margin', 'png'],
    ['margin over 500px', { crop: 'true', crop_margin: '501px' }, 'invalid_crop_margin', 'png'],
    ['position by name', { position: 'left' }, 'invalid_position', 'png'],
    ['position over 100%', { position: '120%' }, 'invalid_position', 'png'],
    ['roi of three values', { roi: '0 0 10px' }, 'invalid_roi', 'png'],
    ['roi corners swapped', { roi: '50px 0px 10px 20px' }, 'invalid_roi', 'png'],
    ['scale under 10%', { scale: '5%' }, 'invalid_scale', 'png'],
    ['scale over 100%', { scale: '101%' }, 'invalid_scale', 'png'],
    ['scale without %', { scale: '50' }, 'invalid_scale', 'png'],
    ['crop not a boolean', { crop: 'maybe' }, 'invalid_crop', 'png'],
    ['a GIF', {}, 'invalid_file_type', 'gif'],
    ['base64 that is not', { image_file_b64: '***' }, 'invalid_file_type', null],
    ['base64 of text', { image_file_b64: Buffer.from('hello').toString('base64') }, 'invalid_file_type', null],
    ['over 25 MP', {}, 'invalid_dimensions', 'bomb'],
    ['over 25 MP at 50MP', { size: '50MP' }, 'resolution_too_high', 'bomb'],
    ['ftp URL', { image_url: 'ftp://example.com/a.png' }, 'invalid_image_url', null],
    ['URL with credentials', { image_url: 'https://user:pw@example.com/a.png' }, 'invalid_image_url', null],
    ['private address', { image_url: 'http://10.1.2.3/a.png' }, 'invalid_image_url', null],
    ['metadata address', { image_url: 'http://169.254.169.254/latest' }, 'invalid_image_url', null],
    ['loopback not allowed', { image_url: 'http://[::1]/a.png' }, 'invalid_image_url', null],
    ['bg_image_url private', { bg_image_url: 'http://192.168.0.1/b.png' }, 'invalid_image_url', 'png'],
  ];

  it.each(cases)('%s', async (_name, fields, code, file) => {
    const { userId, key } = await keyHolder(t);
    let req = post(key);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    if (file === 'png') req = req.attach('image_file', png, 'a.png');
    if (file === 'gif') req = req.attach('image_file', await gifImage(), 'a.gif');
    if (file === 'bomb') req = req.attach('image_file', pixelBombPng(), 'bomb.png');
    if (!file && Object.keys(fields).length === 0) req = req.type('form').send('');
    const res = await req.expect(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ code, title: expect.any(String) });
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100, jobs: 0 });
  });

  it('answers URL downloads that fail or are too large with failed_image_download / file_too_large', async () => {
    const { userId, key } = await keyHolder(t);
    const send = (url: string) => post(key).send({ image_url: url }).expect(400);
    expect((await send(images.url('/missing.png'))).body.errors[0].code).toBe('failed_image_download');
    expect((await send(images.url('/redirect/4'))).body.errors[0].code).toBe('failed_image_download');
    expect((await send(images.url('/huge.png'))).body.errors[0].code).toBe('file_too_large');
    expect((await send('http://127.0.0.1:1/a.png')).body.errors[0].code).toBe('failed_image_download');
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100, jobs: 0 });
  });

  it('answers 402 insufficient_credits when the balance does not cover the size', async () => {
    const { userId, key } = await keyHolder(t, 0.2);
    const res = await post(key).attach('image_file', png, 'a.png').expect(402);
    expect(res.body.errors[0].code).toBe('insufficient_credits');
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 2, jobs: 0 });
  });

  it('answers 404 in remove.bg shape for an unknown /v1.0 path', async () => {
    const { key } = await keyHolder(t);
    const res = await t.agent().get('/v1.0/nothing').set('X-Api-Key', key).expect(404);
    expect(res.body.errors[0].code).toBe('not_found');
  });
});

describe('POST /v1.0/removebg', () => {
  it('multipart image_file: the image bytes, the headers, one job charged at the preview price', async () => {
    const { userId, key } = await keyHolder(t);
    const res = await post(key).attach('image_file', subject, 'shoe.png').buffer(true).expect(200);
    // format=auto: transparency is left, so PNG.
    expect(res.headers['content-type']).toBe('image/png');
    expect((await sharp(res.body as Buffer).metadata()).width).toBe(100);
    expect(res.headers).toMatchObject({
      'x-width': '100',
      'x-height': '80',
      'x-credits-charged': '0.3',
      'x-type': 'other',
      'x-foreground-top': '40',
      'x-foreground-left': '30',
      'x-foreground-width': '20',
      'x-foreground-height': '10',
    });
    expect(res.headers['x-max-width']).toBeUndefined();
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 97, jobs: 1 });
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    expect(job).toMatchObject({
      tool: 'remove-background',
      status: 'succeeded',
      cost_tenths: '3',
      input_name: 'shoe.png',
    });
    const spend = await t.ctx
      .db('token_ledger')
      .where({ idempotency_key: `job:${job.id}:charge` })
      .first();
    expect(Number(spend.delta_tenths)).toBe(-3);
  });

  it('reduces the input to the size before the job runs and says so in X-Max-Width / X-Max-Height', async () => {
    const { userId, key } = await keyHolder(t);
    const preview = await post(key).field('format', 'png').attach('image_file', bigJpeg, 'big.jpg').expect(200);
    // 1000x800 = 0.8 MP reduced to at most 0.25 MP, aspect kept.
    expect(preview.headers).toMatchObject({ 'x-max-width': '559', 'x-max-height': '447' });
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    expect([job.input_width, job.input_height]).toEqual([559, 447]);
    const full = await post(key).field('size', 'full').field('format', 'png').attach('image_file', bigJpeg).expect(200);
    expect(full.headers['x-max-width']).toBeUndefined();
    expect(full.headers['x-credits-charged']).toBe('1');
    const medium = await post(key)
      .field('size', 'medium')
      .field('format', 'png')
      .attach('image_file', bigJpeg)
      .expect(200);
    expect(medium.headers['x-credits-charged']).toBe('0.6');
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100 - 3 - 10 - 6, jobs: 3 });
  });

  it('JSON image_file_b64 with Accept: application/json: remove.bg data object', async () => {
    const { key } = await keyHolder(t);
    const res = await post(key)
      .set('Accept', 'application/json')
      .send({ image_file_b64: png.toString('base64'), size: 'regular', format: 'png', crop: false })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'cutout_confidence',
        'foreground_height',
        'foreground_left',
        'foreground_top',
        'foreground_width',
        'result_b64',
      ].sort(),
    );
    // An opaque photo is one solid subject: nothing doubtful about it.
    expect(data.cutout_confidence).toBe(1);
    expect((await sharp(Buffer.from(data.result_b64, 'base64')).metadata()).format).toBe('png');
    expect(res.headers['x-credits-charged']).toBe('0.3');
  });

  it('multipart image_file_b64 of a photo far past the 16 KB of other text fields, which keep that limit', async () => {
    const { key } = await keyHolder(t);
    // Noise does not compress: about 200 KB of PNG, 270 KB as base64.
    const photo = await sharp({
      create: {
        width: 260,
        height: 260,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const b64 = photo.toString('base64');
    expect(b64.length).toBeGreaterThan(200 * 1024);
    const res = await post(key).field('image_file_b64', b64).field('format', 'png').expect(200);
    expect(res.headers['x-width']).toBe('260');
    expect((await sharp(res.body as Buffer).metadata()).width).toBe(260);
    // Any other text field past 16 KB is still refused, and charges nothing.
    const long = await post(key)
      .field('image_file_b64', b64)
      .field('bg_color', 'a'.repeat(17 * 1024));
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('This field is too long: at most 16 KB.');
  });

  it('urlencoded image_url: fetched through redirects from an allowed host', async () => {
    const { userId, key } = await keyHolder(t);
    const res = await post(key)
      .type('form')
      .send({ image_url: images.url('/redirect/3'), format: 'png' })
      .expect(200);
    expect(res.headers['x-width']).toBe('64');
    // An opaque photo stays opaque (the test worker's matte is the input's alpha): format=png as asked.
    expect(res.headers['content-type']).toBe('image/png');
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    expect(job.input_name).toBe('ok.png');
  });

  it('format=zip: color.jpg and alpha.png', async () => {
    const { key } = await keyHolder(t);
    const res = await post(key)
      .field('format', 'zip')
      .attach('image_file', png, 'a.png')
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = await zipEntries(res.body as Buffer);
    expect(Object.keys(entries).sort()).toEqual(['alpha.png', 'color.jpg']);
    const color = await sharp(entries['color.jpg']).metadata();
    expect([color.format, color.channels]).toEqual(['jpeg', 3]);
    const alpha = await sharp(entries['alpha.png']).metadata();
    expect([alpha.format, alpha.channels]).toEqual(['png', 1]);
  });

  it('a photo without any subject: 400 unknown_foreground, the job refunded', async () => {
    const { userId, key } = await keyHolder(t);
    const empty = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const res = await post(key).attach('image_file', empty, 'empty.png').expect(400);
    expect(res.body.errors[0].code).toBe('unknown_foreground');
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    expect(job).toMatchObject({ status: 'succeeded', refunded: true });
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100, jobs: 1 });
    const refunds = await t.ctx.db('token_ledger').where({ idempotency_key: `job:${job.id}:refund` });
    expect(refunds.map((r: { delta_tenths: string }) => Number(r.delta_tenths))).toEqual([3]);
  });

  it('a failed job is refunded and answered 500 processing_failed', async () => {
    const { userId, key } = await keyHolder(t);
    worker.setBehaviour('fail-unrecoverable');
    try {
      const res = await post(key).field('format', 'png').attach('image_file', png).expect(500);
      expect(res.body.errors[0].code).toBe('processing_failed');
    } finally {
      worker.setBehaviour('succeed');
    }
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    expect(job).toMatchObject({ status: 'failed', refunded: true });
    expect((await balanceAndJobs(t, userId)).balance).toBe(100);
  });

  it('a job not done within the wait is cancelled, refunded and answered 503 with Retry-After', async () => {
    const { userId, key } = await keyHolder(t);
    worker.setBehaviour('hang');
    try {
      const res = await post(key).field('format', 'png').attach('image_file', png).expect(503);
      expect(res.body.errors[0].code).toBe('timeout');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      worker.setBehaviour('succeed');
    }
    const deadline = Date.now() + 10_000;
    let job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    while (!job.refunded && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    }
    expect(job).toMatchObject({ status: 'cancelled', refunded: true });
    expect((await balanceAndJobs(t, userId)).balance).toBe(100);
  });
});

describe('layout fields, mapped onto the product-photo options of the tool', () => {
  /** One call with `fields` on the subject image: the reply, and the job's params as the tool stored them. */
  async function call(fields: Record<string, string>, extra?: (r: ReturnType<typeof post>) => ReturnType<typeof post>) {
    const { userId, key } = await keyHolder(t);
    let req = post(key);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    req = req.attach('image_file', subject, 'subject.png');
    if (extra) req = extra(req);
    const res = await req.buffer(true).expect(200);
    const job = await t.ctx.db('image_jobs').where({ user_id: userId }).first();
    return { res, job, params: job.params as Record<string, unknown>, bytes: res.body as Buffer };
  }

  type Row = [name: string, fields: Record<string, string>, params: Record<string, unknown>, size: [number, number]];
  const rows: Row[] = [
    ['crop', { crop: 'true' }, { crop_to_subject: true }, [20, 10]],
    [
      'crop with crop_margin px',
      { crop: 'true', crop_margin: '5px' },
      { crop_to_subject: true, margin: '5px 5px 5px 5px' },
      [30, 20],
    ],
    // remove.bg's % margin is of the subject (20x10): 10% adds 2 px left and right, 1 px top and bottom.
    [
      'crop with crop_margin % of the subject',
      { crop: 'true', crop_margin: '10%' },
      { margin: '8.3333% 8.3333% 8.3333% 8.3333%' },
      [24, 12],
    ],
    ['crop with two % margins', { crop: 'true', crop_margin: '20% 25%' }, {}, [30, 14]],
    [
      'crop with four margins',
      { crop: 'true', crop_margin: '1px 2px 3px 4px' },
      { margin: '1px 2px 3px 4px' },
      [26, 14],
    ],
    [
      'scale 50%: the subject fills half of a canvas of the input size',
      { scale: '50%' },
      { crop_to_subject: true, canvas: '100x80', margin: '25%' },
      [100, 80],
    ],
    ['scale original: nothing changes', { scale: 'original' }, { output_format: 'auto' }, [100, 80]],
    ['position', { scale: '50%', position: '0% 100%' }, { position: '0% 100%' }, [100, 80]],
    ['one position value for both axes', { scale: '60%', position: '20%' }, { position: '20% 20%' }, [100, 80]],
    ['position original', { scale: '60%', position: 'original' }, { position: 'original' }, [100, 80]],
    ['bg_color without #', { bg_color: '81d4fa' }, { background_color: '#81d4fa' }, [100, 80]],
    ['bg_color name', { bg_color: 'White' }, { background_color: 'white' }, [100, 80]],
    ['add_shadow', { add_shadow: 'true' }, { shadow: 'drop' }, [100, 80]],
    ['channels alpha', { channels: 'alpha' }, { mask_only: true }, [100, 80]],
    // roi: only the subject inside counts; the subject (30..50, 40..50) is cut at x = 35, so crop keeps 5x10.
    ['roi with crop', { crop: 'true', roi: '0px 0px 35px 80px' }, { roi: '0 0 35px 80px' }, [5, 10]],
    ['roi in %', { crop: 'true', roi: '0% 0% 35% 100%' }, { roi: '0 0 35% 100%' }, [5, 10]],
    ['format jpg', { format: 'jpg' }, { output_format: 'jpeg' }, [100, 80]],
    ['format webp', { format: 'webp' }, { output_format: 'webp' }, [100, 80]],
    [
      'type and semitransparency are accepted',
      { type: 'product', type_level: '2', semitransparency: 'true' },
      {},
      [100, 80],
    ],
  ];

  it.each(rows)('%s', async (_name, fields, params, [width, height]) => {
    const { res } = await call(fields).then(async (r) => {
      expect(r.params).toMatchObject(params);
      return r;
    });
    expect([res.headers['x-width'], res.headers['x-height']]).toEqual([String(width), String(height)]);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([width, height]);
  });

  it('format auto: JPEG once a background colour leaves no transparency, PNG for a cut-out', async () => {
    const opaque = await call({ bg_color: 'fff' });
    expect(opaque.res.headers['content-type']).toBe('image/jpeg');
    const cutout = await call({});
    expect(cutout.res.headers['content-type']).toBe('image/png');
  });

  it('channels=alpha answers the grey matte and leaves out bg_color and add_shadow, as remove.bg does', async () => {
    const { params, bytes } = await call({ channels: 'alpha', bg_color: 'red', add_shadow: 'true' });
    expect(params).toMatchObject({ mask_only: true });
    expect(params.background_color).toBeUndefined();
    expect(params.shadow).toBeUndefined();
    const meta = await sharp(bytes).metadata();
    expect(meta.channels).toBeLessThanOrEqual(2);
  });

  it('bg_image_file and bg_image_url become the background_image input of the job', async () => {
    const byFile = await call({}, (r) => r.attach('bg_image_file', png, 'bg.png'));
    expect(byFile.params).toMatchObject({ background_image: true });
    expect((await sharp(byFile.bytes).stats()).isOpaque).toBe(true);
    const byUrl = await call({ bg_image_url: images.url('/ok.png') });
    expect(byUrl.params).toMatchObject({ background_image: true });
    const stored = await t.ctx.storage.get(
      inputFileKey({ userId: byUrl.job.user_id, jobId: byUrl.job.id }, 'background_image'),
    );
    expect((await sharp(stored).metadata()).width).toBe(64);
  });

  it('crop with the foreground headers of the cropped result', async () => {
    const { res } = await call({ crop: 'true', crop_margin: '10px' });
    expect(res.headers).toMatchObject({
      'x-foreground-left': '10',
      'x-foreground-top': '10',
      'x-foreground-width': '20',
      'x-foreground-height': '10',
    });
  });
});

describe('GET /v1.0/account and POST /v1.0/improve', () => {
  it('shows the balance in tokens as total and payg', async () => {
    const { key } = await keyHolder(t, 12.5);
    const res = await t.agent().get('/v1.0/account').set('X-Api-Key', key).expect(200);
    expect(res.body).toEqual({
      data: {
        attributes: {
          credits: { total: 12.5, subscription: 0, payg: 12.5, enterprise: 0 },
          api: { free_calls: 0, sizes: 'all' },
          limits: { requests_per_minute: t.config.API_KEY_RATE_PER_MINUTE, uploads_in_flight_per_key: 8 },
        },
      },
    });
  });

  it('improve answers 200 and stores nothing', async () => {
    const { userId, key } = await keyHolder(t);
    const res = await t.agent().post('/v1.0/improve').set('X-Api-Key', key).attach('image_file', png).expect(200);
    expect(res.body.id).toEqual(expect.any(String));
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100, jobs: 0 });
  });
});

describe('OpenAPI', () => {
  it('lists the /v1.0 routes at the site root with their own security scheme and error shape', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body;
    const item = doc.paths['/v1.0/removebg'];
    expect(item.servers).toEqual([{ url: 'http://127.0.0.1:3999', description: expect.any(String) }]);
    expect(item.post.security).toEqual([{ removeBgApiKey: [] }]);
    expect(item.post.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RemoveBgErrors',
    });
    expect(doc.components.securitySchemes.removeBgApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    expect(Object.keys(doc.paths['/v1.0/account'])).toEqual(['servers', 'get']);
    expect(Object.keys(doc.paths['/v1.0/improve'])).toEqual(['servers', 'post']);
  });
});

function zipEntries(zip: Buffer): Promise<Record<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, Buffer> = {};
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName] = Buffer.concat(chunks);
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}
