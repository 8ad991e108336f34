import { randomUUID } from 'node:crypto';
import { routes, type JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { createUser, signIn, verifiedUser, xsrfAgent } from '../../test/auth-helpers';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from './job-events';
import { money, waitFor, waitForStatus, workerFor } from './jobs.test-support';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    JOB_ATTEMPTS: '2',
    JOB_RETRY_DELAY_MS: '50',
    METRICS_TOKEN: 'jobs-test-metrics-token',
  });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { concurrency: 1, slowMs: 600 });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const generate = (prompt = 'a red fox in the snow', extra: Record<string, unknown> = {}) => ({
  prompt,
  size: '1024x1024',
  ...extra,
});

async function fetchUrl(url: string): Promise<{ status: number; bytes: number }> {
  const res = await fetch(url);
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

describe('POST /api/tools/generate', () => {
  it('charges on accept, runs on the worker and shows the results through presigned URLs', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const res = await agent
      .post('/api/tools/generate')
      .send(generate('two cats', { count: 2 }))
      .expect(202);
    const job = res.body.payload as JobView;
    expect(res.body.status).toBe('OK');
    expect(job).toMatchObject({ tool: 'generate', status: 'queued', cost: 2, refunded: false, results: [] });
    expect(job.params).toMatchObject({ prompt: 'two cats', count: 2, size: '1024x1024' });
    expect((await money(t, user.id, job.id)).keys).toEqual([`job:${job.id}:charge=-20`]);

    const done = await waitForStatus(agent, job.id, ['succeeded']);
    expect(done.progress).toBe(100);
    expect(done.started_at).not.toBeNull();
    expect(done.results).toHaveLength(2);
    expect(done.results[0]).toMatchObject({ width: 32, height: 24, format: 'png' });
    const file = await fetchUrl(done.results[0]!.url);
    expect(file).toEqual({ status: 200, bytes: done.results[0]!.bytes });
    expect(done.results[0]!.url).toContain('X-Amz-Expires=900');
    const after = await money(t, user.id, job.id);
    expect(after.balance).toBe(80);
    expect(after.ledger).toBe(after.balance);
  });

  it("shows each result's small WebP preview, and none for results stored before previews", async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const res = await agent.post('/api/tools/generate').send(generate('a small preview')).expect(202);
    const done = await waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded']);
    const thumb = await fetch(done.results[0]!.thumbnail_url!);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(done.results[0]!.thumbnail_url).toContain('X-Amz-Expires=900');

    // A result written before previews existed has no thumbnailKeys: no preview URL, the result itself stays.
    await t.ctx
      .db('image_jobs')
      .where({ id: done.id })
      .update({ result: t.ctx.db.raw(`result - 'thumbnailKeys'`) });
    const { body } = await agent.get(`/api/jobs/${done.id}`).expect(200);
    expect((body.payload as JobView).results[0]).toMatchObject({ thumbnail_url: null, width: 32 });
  });

  it('answers 402 with the exact message and charges nothing when the balance is short', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 1.5 });
    const res = await agent
      .post('/api/tools/generate')
      .send(generate('x', { count: 2 }))
      .expect(402);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'insufficient_tokens',
      message: 'Not enough tokens: this needs 2, you have 1.5.',
    });
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
    expect((await money(t, user.id)).balance).toBe(15);
  });

  it('validates the prompt, count and size with field messages', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const blank = await agent.post('/api/tools/generate').send(generate('   ')).expect(422);
    expect(blank.body.errors.prompt).toEqual(['Prompt is required']);
    const long = await agent
      .post('/api/tools/generate')
      .send(generate('x'.repeat(1001)))
      .expect(422);
    expect(long.body.errors.prompt[0]).toContain('1000');
    await agent
      .post('/api/tools/generate')
      .send(generate('x', { count: 5 }))
      .expect(422);
    const size = await agent
      .post('/api/tools/generate')
      .send(generate('x', { size: '333x333' }))
      .expect(422);
    expect(size.body.errors.size[0]).toContain('1024x1024');
    const style = await agent
      .post('/api/tools/generate')
      .send(generate('x', { style: 'no-such-style' }))
      .expect(422);
    expect(style.body.errors.style[0]).toContain('photographic');
  });

  it('needs a signed-in user with a verified email', async () => {
    const guest = await xsrfAgent(t);
    await guest.post('/api/tools/generate').send(generate()).expect(401);
    await guest.get('/api/jobs').expect(401);
    const { email, password } = await createUser(t);
    const unverified = await xsrfAgent(t);
    await signIn(unverified, email, password).then((r) => expect(r.status).toBe(200));
    const res = await unverified.post('/api/tools/generate').send(generate()).expect(403);
    expect(res.body.message).toBe('Your email address is not verified.');
  });

  it('replays an Idempotency-Key without a second charge, and refuses the key with another body', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const key = randomUUID();
    const first = await agent
      .post('/api/tools/generate')
      .set('Idempotency-Key', key)
      .send(generate('same'))
      .expect(202);
    const again = await agent
      .post('/api/tools/generate')
      .set('Idempotency-Key', key)
      .send(generate('same'))
      .expect(202);
    expect(again.body.payload.id).toBe(first.body.payload.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await agent
      .post('/api/tools/generate')
      .set('Idempotency-Key', key)
      .send(generate('different'))
      .expect(422);
    expect(other.body.errors['Idempotency-Key']).toBeDefined();
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '1' });
    await waitForStatus(agent, first.body.payload.id, ['succeeded']);
    expect((await money(t, user.id)).balance).toBe(40);
  });
});

describe('failures and refunds', () => {
  it('refunds once when the worker refuses the job, with a user-facing message', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 3 });
    const res = await agent.post('/api/tools/generate').send(generate('[[fail-unrecoverable]]')).expect(202);
    const job = await waitForStatus(agent, res.body.payload.id, ['failed']);
    expect(job).toMatchObject({
      refunded: true,
      error: 'The image could not be processed. Your tokens have been refunded.',
    });
    const m = await money(t, user.id, job.id);
    expect(m.keys).toEqual([`job:${job.id}:charge=-10`, `job:${job.id}:refund=10`]);
    expect(m.balance).toBe(30);
    expect(m.ledger).toBe(30);
  });

  it('retries a failing job up to JOB_ATTEMPTS, then refunds once', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 3 });
    const res = await agent.post('/api/tools/generate').send(generate('[[fail]]')).expect(202);
    const job = await waitForStatus(agent, res.body.payload.id, ['failed']);
    expect(worker.started.filter((id) => id === job.id)).toHaveLength(2);
    expect((await money(t, user.id, job.id)).keys).toHaveLength(2);
    expect((await money(t, user.id)).balance).toBe(30);
  });
});

describe('cancel', () => {
  it('removes and refunds a queued job at once, and stops a running one at its next step', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const running = (await agent.post('/api/tools/generate').send(generate('[[hang]]')).expect(202)).body
      .payload as JobView;
    await waitForStatus(agent, running.id, ['running']);
    const queued = (await agent.post('/api/tools/generate').send(generate('waits')).expect(202)).body
      .payload as JobView;
    const before = (await agent.get(`/api/jobs/${queued.id}`).expect(200)).body.payload as JobView;
    expect(before.status).toBe('queued');
    expect(before.queue_position).toBe(1);

    const cancelledQueued = await agent.post(`/api/jobs/${queued.id}/cancel`).expect(200);
    expect(cancelledQueued.body.payload).toMatchObject({ status: 'cancelled', refunded: true });

    await agent.post(`/api/jobs/${running.id}/cancel`).expect(200);
    const stopped = await waitForStatus(agent, running.id, ['cancelled']);
    expect(stopped.refunded).toBe(true);
    expect(stopped.error).toBe('Cancelled. Your tokens have been refunded.');
    expect(worker.started).not.toContain(queued.id);
    const m = await money(t, user.id);
    expect(m.balance).toBe(50);
    expect(m.ledger).toBe(50);
    const again = await agent.post(`/api/jobs/${running.id}/cancel`).expect(409);
    expect(again.body.message).toBe('This job has already finished.');
  });
});

describe('job calls are owner-only', () => {
  it('answers 404 to another user and to unknown ids on every job call', async () => {
    const owner = await verifiedUser(t, { balanceTokens: 2 });
    const job = (await owner.agent.post('/api/tools/generate').send(generate('mine')).expect(202)).body
      .payload as JobView;
    await waitForStatus(owner.agent, job.id, ['succeeded']);
    const other = await verifiedUser(t, { balanceTokens: 0 });
    for (const id of [job.id, randomUUID(), 'not-a-uuid']) {
      await other.agent.get(`/api/jobs/${id}`).expect(404);
      await other.agent.get(`/api/jobs/${id}/events`).expect(404);
      await other.agent.post(`/api/jobs/${id}/cancel`).expect(404);
      await other.agent.delete(`/api/jobs/${id}`).expect(404);
    }
    const list = await other.agent.get('/api/jobs').expect(200);
    expect(list.body.payload.total).toBe(0);
    expect((await owner.agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload.deleted).toBe(false);
  });
});

describe('GET /api/jobs/{id}/events', () => {
  it('streams status and progress and ends with the final state', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 2 });
    const job = (await agent.post('/api/tools/generate').send(generate('[[slow]] streamed')).expect(202)).body
      .payload as JobView;
    const res = await agent
      .get(`/api/jobs/${job.id}/events`)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = String(res.body)
      .split('\n\n')
      .filter((block) => block.startsWith('event:'))
      .map((block) => ({
        event: /^event: (.+)$/m.exec(block)![1],
        data: JSON.parse(/^data: (.+)$/m.exec(block)![1]!) as JobView,
      }));
    const statuses = events.filter((e) => e.event === 'job').map((e) => e.data.status);
    expect(statuses).toContain('running');
    expect(events.some((e) => e.event === 'job' && e.data.progress === 50)).toBe(true);
    const last = events[events.length - 1]!;
    expect(last.event).toBe('end');
    expect(last.data).toMatchObject({ id: job.id, status: 'succeeded', progress: 100 });
    expect(last.data.results).toHaveLength(1);
  });
});

describe('history, projects and delete', () => {
  it('lists jobs newest first with filters, and DELETE removes files but keeps the row', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const ok = (await agent.post('/api/tools/generate').send(generate('kept')).expect(202)).body.payload as JobView;
    const bad = (await agent.post('/api/tools/generate').send(generate('[[fail-unrecoverable]]')).expect(202)).body
      .payload as JobView;
    const done = await waitForStatus(agent, ok.id, ['succeeded']);
    await waitForStatus(agent, bad.id, ['failed']);

    const all = (await agent.get('/api/jobs?page=1').expect(200)).body.payload;
    expect(all).toMatchObject({ page: 1, per_page: 20, total: 2, last_page: 1 });
    expect(all.items.map((j: JobView) => j.id)).toEqual([bad.id, ok.id]);
    const failed = (await agent.get('/api/jobs?status=failed').expect(200)).body.payload;
    expect(failed.items.map((j: JobView) => j.id)).toEqual([bad.id]);
    expect((await agent.get('/api/user/request-history?tool=upscale').expect(200)).body.payload.total).toBe(0);
    const projects = (await agent.get('/api/user/projects').expect(200)).body.payload;
    expect(projects.items.map((j: JobView) => j.id)).toEqual([ok.id]);

    await agent.delete(`/api/jobs/${ok.id}`).expect(200);
    expect((await fetchUrl(done.results[0]!.url)).status).toBe(404);
    const after = (await agent.get(`/api/jobs/${ok.id}`).expect(200)).body.payload as JobView;
    expect(after).toMatchObject({ status: 'succeeded', deleted: true, results: [], input_url: null });
    expect((await agent.get('/api/user/projects').expect(200)).body.payload.total).toBe(0);
    expect((await agent.get('/api/jobs').expect(200)).body.payload.total).toBe(2);
  });
});

describe('quote, status and metrics', () => {
  it('quotes the exact cost and reports tools with a live worker', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 0 });
    const q = await agent.get('/api/tools/quote?tool=generate&count=3').expect(200);
    expect(q.body.payload).toEqual({ tool: 'generate', count: 3, factor: null, model: null, unit_price: 1, cost: 3 });
    const up = await agent.get('/api/tools/quote?tool=upscale&factor=4').expect(200);
    expect(up.body.payload).toMatchObject({ factor: 4, model: 'photo', cost: 1 });
    expectReplyMatchesSchema(routes.tools.quote, up.body);
    await agent.get('/api/tools/quote?tool=upscale&factor=3').expect(422);
    const status = await agent.get('/api/tools/status').expect(200);
    expect(status.body.payload.generate).toEqual({ available: true, provider: 'cpu', models: [] });
    expectReplyMatchesSchema(routes.tools.status, status.body);
  });

  it('exposes queue depth, oldest wait, durations and outcomes on /api/metrics', async () => {
    await waitFor(async () => {
      const text = (
        await t.agent().get('/api/metrics').set('Authorization', 'Bearer jobs-test-metrics-token').expect(200)
      ).text;
      return /image_jobs_finished_total\{tool="generate",status="failed"\} \d+/.test(text) ? text : undefined;
    });
    const text = (
      await t.agent().get('/api/metrics').set('Authorization', 'Bearer jobs-test-metrics-token').expect(200)
    ).text;
    expect(text).toMatch(/image_queue_jobs\{state="waiting"\} \d+/);
    expect(text).toMatch(/image_queue_oldest_waiting_seconds \d+/);
    expect(text).toMatch(/image_job_duration_seconds_count\{tool="generate",status="succeeded"\} [1-9]/);
  });
});
