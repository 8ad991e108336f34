import type { BatchAccepted, JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { FAIR_SHARE } from '../jobs/fair-priority';
import { waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

/** How long the test worker takes per job: the unit "the time of one job" below is measured, not assumed. */
const JOB_MS = 400;

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
const starts = new Map<string, number>();

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, {
    concurrency: 1,
    behaviour: 'slow',
    slowMs: JOB_MS,
    onStart: (id) => starts.set(id, Date.now()),
  });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

describe('fair scheduling between users', () => {
  it("starts another user's single job within the time of 2 jobs while a 50-image batch is queued", async () => {
    const big = await verifiedUser(t, { balanceTokens: 100 });
    const small = await verifiedUser(t, { balanceTokens: 10 });
    const png = await solidImage('png', 16, 16);
    const req = big.agent.post('/api/batches').field('tool', 'remove-background');
    for (let i = 0; i < 50; i += 1) req.attach('images', png, `item-${String(i).padStart(2, '0')}.png`);
    const batch = (await req.expect(202)).body.payload as BatchAccepted;
    expect(batch.items).toHaveLength(50);

    const submittedAt = Date.now();
    const single = (await small.agent.post('/api/tools/remove-background').attach('image', png, 'solo.png').expect(202))
      .body.payload as JobView;
    // Its place is shown among the queue's waiting jobs (ahead of the batch's prioritized items).
    expect(single.queue_position).not.toBeNull();
    expect(single.queue_position!).toBeLessThanOrEqual(FAIR_SHARE);
    await waitForStatus(small.agent, single.id, ['succeeded'], 30_000);

    // Measured: what one job takes on this machine, start to next start (the worker runs one at a time).
    const order = worker.started.map((id) => starts.get(id)!);
    const gaps = order
      .slice(1)
      .map((at, i) => at - order[i]!)
      .sort((a, b) => a - b);
    const oneJob = gaps[Math.floor(gaps.length / 2)]!;
    const waited = starts.get(single.id)! - submittedAt;
    // The single job ran after at most the running batch item and the one other waiting item.
    const before = worker.started.indexOf(single.id);
    expect(before).toBeGreaterThanOrEqual(0);
    expect(before).toBeLessThanOrEqual(FAIR_SHARE);
    expect(waited).toBeLessThanOrEqual(2 * oneJob + 250);
    // Reported by the test run (the figure the issue asks for).
    process.stdout.write(
      `fairness: single job started after ${waited} ms, ${before} batch jobs before it, one job = ${oneJob} ms\n`,
    );

    // Without fair scheduling it would have waited behind all 50: the batch is still far from done.
    const open = await big.agent.get(`/api/batches/${batch.id}`).expect(200);
    expect(open.body.payload.counts.succeeded).toBeLessThan(10);
    // Batch items beyond the fair share wait in BullMQ's prioritized set, with a queue position.
    const queued = open.body.payload.items.filter((i: { status: string }) => i.status === 'queued');
    expect(queued.at(-1).queue_position).toBeGreaterThan(30);
    await big.agent.post(`/api/batches/${batch.id}/cancel`).expect(200);
  });
});
