import { EventEmitter } from 'node:events';
import { parse } from 'csv-parse/sync';
import type { Response } from 'express';
import type { BatchAccepted, BatchItemView, BatchPage, BatchView } from '@imagestudio/contracts';
import { BATCH_MESSAGES, batchAcceptedSchema, batchPageSchema, batchViewSchema } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { Behaviour, TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { money, waitFor, workerFor } from '../jobs/jobs.test-support';
import { UPLOAD_MESSAGES, UPLOAD_MESSAGES_FLOW, type UploadSession } from '../uploads';
import { gifImage, solidImage, svgImage } from '../uploads/test-images';
import { ARCHIVE_MESSAGES } from './batch-archive';
import { binaryParser, makeZip, overlappingZip, unzip, waitForBatch } from './batches.test-support';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
/** Per-job behaviour of the test worker (default: succeed), chosen by the test before the job starts. */
const plan = new Map<string, Behaviour>();

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', JOB_ATTEMPTS: '1' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, {
    concurrency: 2,
    slowMs: 200,
    onStart: (jobId) => worker.setBehaviour(plan.get(jobId) ?? 'succeed'),
  });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

type Agent = Awaited<ReturnType<typeof verifiedUser>>['agent'];

function submit(
  agent: Agent,
  files: Array<[string, Buffer]>,
  fields: Record<string, string> = { tool: 'remove-background' },
) {
  const req = agent.post('/api/batches');
  for (const [name, value] of Object.entries(fields)) req.field(name, value);
  for (const [name, bytes] of files) req.attach('images', bytes, name);
  return req;
}

const ended = (b: BatchView) => ['succeeded', 'partial', 'failed', 'cancelled'].includes(b.status);

async function batchRows(userId: string) {
  return {
    batches: Number((await t.ctx.db('batches').where({ user_id: userId }).count('* as n').first())?.n),
    jobs: Number((await t.ctx.db('image_jobs').where({ user_id: userId }).count('* as n').first())?.n),
  };
}

describe('POST /api/batches with files', () => {
  it('charges each item by its own entry, runs them, and streams a ZIP named after the inputs', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const res = await submit(agent, [
      ['shoe-01.png', png],
      ['shoe-01.png', await solidImage('jpeg')],
      ['C:\\photos\\boot.webp', await solidImage('webp')],
    ]).expect(202);
    const accepted = batchAcceptedSchema.parse(res.body.payload) as BatchAccepted;
    expect(accepted).toMatchObject({ tool: 'remove-background', status: 'queued', cost: 3 });
    expect(accepted.items.map((i) => [i.file_name, i.status])).toEqual([
      ['shoe-01.png', 'queued'],
      ['shoe-01.png', 'queued'],
      ['boot.webp', 'queued'], // busboy keeps only the base name of a path
    ]);
    const charges = await Promise.all(accepted.items.map(async (i) => (await money(t, user.id, i.id)).keys));
    expect(charges).toEqual(accepted.items.map((i) => [`job:${i.id}:charge=-10`]));
    // Each item is an ordinary job.
    const job = (await agent.get(`/api/jobs/${accepted.items[0]!.id}`).expect(200)).body.payload;
    expect(job).toMatchObject({ tool: 'remove-background', batch_id: accepted.id, input_name: 'shoe-01.png' });

    const done = await waitForBatch(agent, accepted.id, ended);
    expect(batchViewSchema.parse(done)).toBeTruthy();
    expect(done).toMatchObject({
      status: 'succeeded',
      total: 3,
      cost: 3,
      refunded: 0,
      counts: { succeeded: 3, queued: 0, running: 0, failed: 0, cancelled: 0 },
    });
    expect(done.finished_at).not.toBeNull();
    expect(done.items.every((i) => i.results.length === 1 && i.progress === 100 && i.input_url !== null)).toBe(true);
    expect((await money(t, user.id)).balance).toBe(70);

    const zip = await agent.get(`/api/batches/${accepted.id}/zip`).buffer(true).parse(binaryParser).expect(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(
      /^attachment; filename="batch-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.zip"$/,
    );
    const entries = await unzip(zip.body as Buffer);
    expect([...entries.keys()]).toEqual([
      'shoe-01-no-background.png',
      'shoe-01-no-background-2.png',
      'boot-no-background.png',
    ]);
    expect(entries.get('shoe-01-no-background.png')!.subarray(1, 4).toString()).toBe('PNG');
    expect(entries.get('shoe-01-no-background.png')!.length).toBe(done.items[0]!.results[0]!.bytes);
    // Nothing failed: no failed.csv to puzzle over.
    expect(entries.has('failed.csv')).toBe(false);
  });

  it('refuses bad files with one 422 naming each, and charges and stores nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const res = await submit(agent, [
      ['good.png', png],
      ['anim.gif', await gifImage()],
      ['logo.svg', svgImage],
      ['cut.png', png.subarray(0, png.length - 20)],
      ['huge.png', Buffer.alloc(21 * 1024 * 1024, 1)],
    ]).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toBe('4 files cannot be processed: anim.gif, logo.svg, cut.png, huge.png.');
    expect(res.body.errors).toEqual({
      'anim.gif': [UPLOAD_MESSAGES.wrongType],
      'logo.svg': [UPLOAD_MESSAGES.wrongType],
      'cut.png': [UPLOAD_MESSAGES.damaged],
      'huge.png': [UPLOAD_MESSAGES.tooLarge],
    });
    expect(await batchRows(user.id)).toEqual({ batches: 0, jobs: 0 });
    const after = await money(t, user.id);
    expect(after.balance).toBe(100);
    expect(after.ledger).toBe(100);
  });

  it('refuses the whole batch with 402 when the balance covers only part of it', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 2 });
    const png = await solidImage('png');
    const res = await submit(agent, [
      ['a.png', png],
      ['b.png', png],
      ['c.png', png],
    ]).expect(402);
    expect(res.body).toMatchObject({
      code: 'insufficient_tokens',
      message: 'Not enough tokens: this needs 3, you have 2.',
    });
    expect(await batchRows(user.id)).toEqual({ batches: 0, jobs: 0 });
    expect((await money(t, user.id)).balance).toBe(20);
  });

  it('checks the tool, its options and the number of files', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 100 });
    const png = await solidImage('png', 8, 8);
    expect((await submit(agent, [['a.png', png]], { tool: 'generate' }).expect(422)).body.errors).toEqual({
      tool: [BATCH_MESSAGES.toolRequired],
    });
    expect(
      (await submit(agent, [['a.png', png]], { tool: 'upscale', factor: '3' }).expect(422)).body.errors.factor,
    ).toBeDefined();
    expect((await submit(agent, []).expect(422)).body.errors).toEqual({ images: [BATCH_MESSAGES.noFiles] });
    const many = Array.from({ length: 51 }, (_, i): [string, Buffer] => [`i${i}.png`, png]);
    expect((await submit(agent, many).expect(422)).body.errors).toEqual({ images: [BATCH_MESSAGES.tooManyFiles] });
    const both = submit(agent, [['a.png', png]]).attach(
      'archive',
      await makeZip([{ name: 'b.png', data: png }]),
      'b.zip',
    );
    expect((await both.expect(422)).body.errors).toEqual({ images: [BATCH_MESSAGES.bothKinds] });
  });

  it('answers a repeated Idempotency-Key with the first batch and charges once', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const first = await submit(agent, [
      ['a.png', png],
      ['b.png', png],
    ])
      .set('Idempotency-Key', 'batch-key-1')
      .expect(202);
    const again = await submit(agent, [
      ['a.png', png],
      ['b.png', png],
    ])
      .set('Idempotency-Key', 'batch-key-1')
      .expect(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.payload.id).toBe(first.body.payload.id);
    expect(again.body.payload.items.map((i: BatchItemView) => i.id)).toEqual(
      first.body.payload.items.map((i: BatchItemView) => i.id),
    );
    const other = await submit(agent, [['a.png', png]])
      .set('Idempotency-Key', 'batch-key-1')
      .expect(422);
    expect(other.body.errors['Idempotency-Key']).toBeDefined();
    expect(await batchRows(user.id)).toEqual({ batches: 1, jobs: 2 });
    expect((await money(t, user.id)).balance).toBe(80);
  });

  it('takes an API key without a session or XSRF token', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const key = (await agent.post('/api/user/api-keys').send({ name: 'batch script' }).expect(201)).body.payload
      .key as string;
    const bare = t.agent();
    const res = await bare
      .post('/api/batches')
      .set('Authorization', `Bearer ${key}`)
      .field('tool', 'remove-background')
      .attach('images', await solidImage('png'), 'a.png')
      .expect(202);
    await bare.get(`/api/batches/${res.body.payload.id}`).set('X-Api-Key', key).expect(200);
    const list = (await bare.get('/api/batches').set('X-Api-Key', key).expect(200)).body.payload as BatchPage;
    expect(list.items.map((b) => b.id)).toEqual([res.body.payload.id]);
  });
});

describe('POST /api/batches with a ZIP', () => {
  it('runs every image of the archive, named by its base name', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const archive = await makeZip([
      { name: 'catalogue/shoe-01.png', data: await solidImage('png') },
      { name: 'catalogue/shoe-02.jpg', data: await solidImage('jpeg'), compress: true },
      { name: '__MACOSX/catalogue/._shoe-01.png', data: Buffer.from('fork') },
    ]);
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .field('output_format', 'webp')
      .attach('archive', archive, 'catalogue.zip')
      .expect(202);
    expect(res.body.payload.items.map((i: BatchItemView) => i.file_name)).toEqual(['shoe-01.png', 'shoe-02.jpg']);
    expect(res.body.payload.cost).toBe(2);
    const done = await waitForBatch(agent, res.body.payload.id, ended);
    expect(done.status).toBe('succeeded');
    expect(done.params).toMatchObject({ output_format: 'webp' });
  });

  it('skips traversal, nested archives, bombs and files that are not images, listing each, and charges the images only', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const archive = await makeZip(
      [
        { name: 'ok.png', data: png },
        { name: 'xx/xx/etc.png', data: png },
        { name: 'inner.zip', data: await makeZip([{ name: 'a.png', data: png }]) },
        { name: 'bomb.png', data: Buffer.alloc(8 * 1024 * 1024), compress: true },
        { name: 'notes.txt', data: Buffer.from('hello') },
        { name: 'fake.png', data: Buffer.from('not a picture at all') },
        { name: '.DS_Store', data: Buffer.from('finder') },
      ],
      { 'xx/xx/etc.png': '../../etc.png' },
    );
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('archive', archive, 'x.zip')
      .expect(202);
    const accepted = res.body.payload as BatchAccepted;
    expect(accepted.items.map((i) => i.file_name)).toEqual(['ok.png']);
    expect(accepted.cost).toBe(1);
    expect(Object.fromEntries(accepted.skipped.map((k) => [k.file_name, k.reasons]))).toEqual({
      '../../etc.png': [BATCH_MESSAGES.entryUnsafePath],
      'inner.zip': [BATCH_MESSAGES.entryNested],
      'bomb.png': [BATCH_MESSAGES.entryRatio],
      'notes.txt': [BATCH_MESSAGES.notAnImage],
      'fake.png': [UPLOAD_MESSAGES.wrongType],
    });
    expect(await batchRows(user.id)).toEqual({ batches: 1, jobs: 1 });
    expect((await money(t, user.id)).balance).toBe(90);
    // The batch view keeps saying what was left out.
    const view = (await agent.get(`/api/batches/${accepted.id}`).expect(200)).body.payload as BatchView;
    expect(view.skipped.map((k) => k.file_name).sort()).toEqual(
      ['../../etc.png', 'bomb.png', 'fake.png', 'inner.zip', 'notes.txt'].sort(),
    );
  });

  it('refuses a ZIP with no image left, naming each entry, with nothing charged', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const archive = await makeZip([
      { name: 'notes.txt', data: Buffer.from('hello') },
      { name: 'fake.png', data: Buffer.from('not a picture at all') },
    ]);
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('archive', archive, 'x.zip')
      .expect(422);
    expect(res.body.errors).toEqual({
      'notes.txt': [BATCH_MESSAGES.notAnImage],
      'fake.png': [UPLOAD_MESSAGES.wrongType],
    });
    expect(await batchRows(user.id)).toEqual({ batches: 0, jobs: 0 });
    expect((await money(t, user.id)).balance).toBe(100);
  });
});

describe('a ZIP costs the API little before it is paid for', () => {
  let bigWebp: Buffer;
  const archiveOf = (count: number) =>
    makeZip(Array.from({ length: count }, (_, i) => ({ name: `big-${i}.webp`, data: bigWebp })));
  const submitArchive = (agent: Agent, archive: Buffer) =>
    agent.post('/api/batches').field('tool', 'remove-background').attach('archive', archive, 'big.zip');

  beforeAll(async () => {
    // A tiny file that decodes to 25 megapixels: decoding 50 of these took the API a minute of CPU.
    bigWebp = await solidImage('webp', 5000, 5000);
    expect(bigWebp.length).toBeLessThan(50_000);
  });

  it('refuses an archive the balance cannot pay for by its entry count, before inflating or decoding any of it', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const archive = await archiveOf(50);
    const started = Date.now();
    const res = await submitArchive(agent, archive).expect(402);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(res.body.message).toBe('Not enough tokens: this needs 50, you have 10.');
    expect(await batchRows(user.id)).toEqual({ batches: 0, jobs: 0 });
  });

  it('checks each image by its header only: the decoding is left to the worker', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 100 });
    const started = Date.now();
    const res = await submitArchive(agent, await archiveOf(20)).expect(202);
    expect(Date.now() - started).toBeLessThan(3000);
    const accepted = res.body.payload as BatchAccepted;
    expect(accepted.items).toHaveLength(20);
    await agent.post(`/api/batches/${accepted.id}/cancel`).expect(200);
    const row = await t.ctx.db('image_jobs').where({ id: accepted.items[0]!.id }).first();
    expect(row).toMatchObject({ input_width: 5000, input_height: 5000, input_name: 'big-0.webp' });
  });

  it('checks one archive per user at a time (429 with Retry-After for another meanwhile)', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const archive = await makeZip([{ name: 'a.png', data: png }]);
    // Another archive of this user is being checked right now.
    const res = new EventEmitter() as unknown as Response;
    const other = t.ctx.services.uploadBudget.open(user.id, res, 0) as UploadSession;
    expect(other.claimArchive()).toBe(true);
    const busy = await submitArchive(agent, archive).expect(429);
    expect(busy.headers['retry-after']).toBeDefined();
    expect(busy.body.message).toBe(UPLOAD_MESSAGES_FLOW.archiveBusy);
    // Plain images are not held up by it, nor are other users' archives.
    await submit(agent, [['a.png', png]]).expect(202);
    const someoneElse = await verifiedUser(t, { balanceTokens: 10 });
    await submitArchive(someoneElse.agent, archive).expect(202);
    res.emit('close');
    await submitArchive(agent, archive).expect(202);
  });

  it('refuses an archive whose entries share their bytes (an overlapping ZIP bomb), nothing charged', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 100 });
    const block = Buffer.from(Array.from({ length: 4 * 1024 * 1024 }, () => (Math.random() < 0.05 ? 66 : 65)));
    const res = await submitArchive(agent, await overlappingZip(50, block)).expect(422);
    expect(res.body.errors).toEqual({ archive: [ARCHIVE_MESSAGES.overlapping] });
    expect(await batchRows(user.id)).toEqual({ batches: 0, jobs: 0 });
    expect((await money(t, user.id)).balance).toBe(1000);
  });
});

describe('batch items end one by one', () => {
  it('refunds only the failed item, and lists it in failed.csv', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    // The worker decides at each job's start; the job ids are known once the batch is accepted, so the
    // worker takes nothing until the test has chosen.
    await worker.worker.pause();
    const res = await submit(agent, [
      ['one.png', png],
      ['two.png', png],
      ['three.png', png],
    ]).expect(202);
    const [one, two, three] = (res.body.payload as BatchAccepted).items.map((i) => i.id) as [string, string, string];
    plan.set(one, 'succeed').set(two, 'fail-unrecoverable').set(three, 'succeed');
    worker.worker.resume();
    const done = await waitForBatch(agent, res.body.payload.id, ended);
    expect(done.status).toBe('partial');
    expect(done.counts).toMatchObject({ succeeded: 2, failed: 1 });
    expect(done.refunded).toBe(1);
    expect((await money(t, user.id, two)).keys).toEqual([`job:${two}:charge=-10`, `job:${two}:refund=10`]);
    expect((await money(t, user.id, one)).keys).toEqual([`job:${one}:charge=-10`]);
    expect((await money(t, user.id, three)).keys).toEqual([`job:${three}:charge=-10`]);
    const m = await money(t, user.id);
    expect([m.balance, m.ledger]).toEqual([80, 80]);

    const zip = await agent.get(`/api/batches/${done.id}/zip`).buffer(true).parse(binaryParser).expect(200);
    const entries = await unzip(zip.body as Buffer);
    expect([...entries.keys()]).toEqual(['one-no-background.png', 'three-no-background.png', 'failed.csv']);
    expect(parse(entries.get('failed.csv')!.toString(), { columns: true })).toEqual([
      {
        file_name: 'two.png',
        job_id: two,
        status: 'failed',
        reason: 'The image could not be processed. Your tokens have been refunded.',
      },
    ]);

    // A retry is a new item with a new charge; the failed one leaves the list, and cannot be retried twice.
    const retry = await agent.post(`/api/batches/${done.id}/items/${two}/retry`).expect(202);
    const item = retry.body.payload as BatchItemView;
    expect(item).toMatchObject({ file_name: 'two.png', retry_of: two, cost: 1 });
    await agent.post(`/api/batches/${done.id}/items/${two}/retry`).expect(409);
    await agent.post(`/api/batches/${done.id}/items/${one}/retry`).expect(409);
    const after = await waitForBatch(agent, done.id, ended);
    expect(after.status).toBe('succeeded');
    expect(after.items.map((i) => i.id)).toEqual([one, item.id, three]);
    expect(after).toMatchObject({ total: 3, cost: 4, refunded: 1 });
    expect((await money(t, user.id)).balance).toBe(70);
  });

  it('cancels every open item, each refunded by itself, and streams the batch until it ends', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    await worker.worker.pause();
    const res = await submit(agent, [
      ['a.png', png],
      ['b.png', png],
      ['c.png', png],
      ['d.png', png],
    ]).expect(202);
    const ids = (res.body.payload as BatchAccepted).items.map((i) => i.id);
    for (const id of ids) plan.set(id, 'hang');
    worker.worker.resume();
    const id = res.body.payload.id as string;
    await waitForBatch(agent, id, (b) => b.counts.running > 0, 15_000, 'an item to run');

    const stream = agent.get(`/api/batches/${id}/events`).buffer(true).parse(binaryParser);
    const cancelled = await agent.post(`/api/batches/${id}/cancel`).expect(200);
    expect(cancelled.body.payload.items.some((i: BatchItemView) => i.status === 'cancelled')).toBe(true);
    const done = await waitForBatch(agent, id, ended);
    expect(done.status).toBe('cancelled');
    expect(done.refunded).toBe(4);
    for (const job of ids)
      expect((await money(t, user.id, job)).keys).toEqual([`job:${job}:charge=-10`, `job:${job}:refund=10`]);
    expect((await money(t, user.id)).balance).toBe(100);
    await agent.post(`/api/batches/${id}/cancel`).expect(409);

    const events = (await stream).body.toString() as string;
    expect(events).toContain('event: batch\n');
    const end = events.split('event: end\ndata: ')[1];
    expect(JSON.parse(end!.split('\n')[0]!)).toMatchObject({ id, status: 'cancelled' });
  });
});

describe("batches are their owner's", () => {
  it("answers 404 to another user on every batch route, and lists only the caller's, newest first", async () => {
    const owner = await verifiedUser(t, { balanceTokens: 10 });
    const other = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png');
    const first = (await submit(owner.agent, [['a.png', png]]).expect(202)).body.payload as BatchAccepted;
    const second = (await submit(owner.agent, [['b.png', png]]).expect(202)).body.payload as BatchAccepted;
    for (const path of ['', '/events', '/zip']) await other.agent.get(`/api/batches/${first.id}${path}`).expect(404);
    await other.agent.post(`/api/batches/${first.id}/cancel`).expect(404);
    await other.agent.post(`/api/batches/${first.id}/items/${first.items[0]!.id}/retry`).expect(404);
    await other.agent.get('/api/batches/not-a-uuid').expect(404);
    const mine = batchPageSchema.parse((await owner.agent.get('/api/batches?page=1').expect(200)).body.payload);
    expect(mine.items.map((b) => b.id)).toEqual([second.id, first.id]);
    expect(mine).toMatchObject({ page: 1, per_page: 20, total: 2, last_page: 1 });
    expect((await other.agent.get('/api/batches').expect(200)).body.payload.items).toEqual([]);
    await t.agent().get('/api/batches').expect(401);
  });
});

afterEach(async () => {
  // Nothing of one test may still run into the next one's worker plan.
  plan.clear();
  worker.worker.resume();
  await waitFor(
    async () => ((await t.ctx.queue.getActiveCount()) + (await t.ctx.queue.getWaitingCount()) === 0 ? true : undefined),
    20_000,
    'an idle queue',
  ).catch(() => undefined);
});
