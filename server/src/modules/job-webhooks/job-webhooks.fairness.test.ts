import { randomUUID } from 'node:crypto';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer } from '../../test/local-server';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { waitFor, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { WEBHOOK_LIMITS } from './delivery-pool';
import { jobWebhooksTask } from './job-webhooks.service';

/** A receiver on a port of its own; `hang` never answers (the sender's WEBHOOK_TIMEOUT_MS ends each try). */
function receiver(hang: boolean) {
  const arrivals: Array<{ at: number; body: string }> = [];
  let open = 0;
  let mostOpen = 0;
  const local = localServer((req, res) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    req.on('close', () => (open -= 1));
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push({ at: Date.now(), body });
      if (!hang) res.writeHead(200).end('ok');
    });
  });
  return { ...local, arrivals, mostOpen: () => mostOpen };
}

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let stopWebhooks: () => Promise<void>;
const hanging = receiver(true);
const healthy = receiver(false);

beforeAll(async () => {
  await hanging.listen();
  await healthy.listen();
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_POLL_INTERVAL_MS: '250',
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { concurrency: 2 });
}, 30_000);
afterAll(async () => {
  await worker.close();
  await hanging.close();
  await stopWebhooks?.();
  await stopEvents();
  await t.close();
  await healthy.close();
}, 30_000);

it("a hanging receiver with 100 pending deliveries leaves another user's webhook within 1 s of its job's end", async () => {
  // 100 ended jobs of one user, each with a webhook to the receiver that never answers.
  const heavy = await verifiedUser(t, { balanceTokens: 10 });
  const first = (
    await heavy.agent
      .post('/api/tools/generate')
      .send({ prompt: 'one of many', size: '1024x1024', callback_url: hanging.url('/hook') })
      .expect(202)
  ).body.payload as JobView;
  await waitForStatus(heavy.agent, first.id, ['succeeded']);
  const row = (await t.ctx.db('image_jobs').where({ id: first.id }).first()) as Record<string, unknown>;
  const copies = Array.from({ length: 99 }, () => ({ ...row, id: randomUUID(), idempotency_key: null }));
  await t.ctx.db('image_jobs').insert(copies);
  await t.ctx
    .db('job_webhooks')
    .insert(copies.map((c) => ({ job_id: c.id, user_id: heavy.user.id, url: hanging.url('/hook') })));

  stopWebhooks = jobWebhooksTask(t.ctx).start();
  await waitFor(async () => (hanging.arrivals.length >= WEBHOOK_LIMITS.perHost ? true : undefined), 10_000);

  const other = await verifiedUser(t, { balanceTokens: 10 });
  const job = (
    await other.agent
      .post('/api/tools/generate')
      .send({ prompt: 'just one', size: '1024x1024', callback_url: healthy.url('/mine') })
      .expect(202)
  ).body.payload as JobView;
  await waitForStatus(other.agent, job.id, ['succeeded']);
  const arrival = await waitFor(
    async () => healthy.arrivals.find((a) => a.body.includes(job.id)),
    15_000,
    "the other user's webhook",
  );
  const ended = (await t.ctx.db('image_jobs').where({ id: job.id }).first()) as { finished_at: Date };
  expect(arrival.at - ended.finished_at.getTime()).toBeLessThan(1000);
  // The hanging destination never held more than its share of the pool.
  expect(hanging.mostOpen()).toBeLessThanOrEqual(WEBHOOK_LIMITS.perHost);
}, 60_000);
