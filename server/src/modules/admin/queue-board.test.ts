import { randomUUID } from 'node:crypto';
import { QUEUE_NAME } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser, type VerifiedUser } from '../../test/auth-helpers';
import { QUEUE_BOARD_REFUSED } from './queue-board';

/**
 * The queue board lets an operator retry, promote, clean, pause and resume, each audited under its own name with its
 * queue or job (and counts for bulk actions); adding a job or rewriting a customer's job data is refused before the
 * board sees it; reads of customers' job data and failed password confirmations are audited.
 */

let t: TestContext;
let operator: VerifiedUser;

beforeAll(async () => {
  t = await createTestContext();
  operator = await verifiedUser(t);
  await t.ctx.db('users').where({ id: operator.user.id }).update({ role: 'admin' });
});
afterAll(() => t.close());

/** Any success: the board answers its changes 200 or 204. */
const ok = (res: { status: number }) => expect(res.status).toBeLessThan(300);

const board = (path: string) => `/admin/queues/api/queues/${QUEUE_NAME}${path}`;

/** The operator's audit rows of `action`, once they are written (after the reply). */
async function auditRows(action: string, count: number) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const rows = await t.ctx
      .db('operator_audit_log')
      .where({ actor_id: operator.user.id, command: action })
      .orderBy('id');
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A customer's job as the API queues it (no worker runs here, so it stays where it is put). */
async function queueJob(opts: { delay?: number } = {}) {
  const id = randomUUID();
  const userId = randomUUID();
  await t.ctx.queue.add('upscale', { jobId: id, userId, inputKey: `uploads/${userId}/${id}.png` } as never, {
    jobId: id,
    ...opts,
  });
  return { id, userId };
}

it('serves the board page with every asset from the API, none from another host', async () => {
  const agent = operator.agent;
  const page = await agent.get('/admin/queues').expect(200);
  expect(page.text).toContain('Image Studio queues');
  const sources = [...page.text.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
  expect(sources.length).toBeGreaterThan(2);
  expect(sources.filter((s) => /^(?:https?:)?\/\//i.test(s))).toEqual([]);
  const script = sources.find((s) => s.endsWith('.js'))!;
  await agent.get(`/admin/queues/${script}`).expect(200);
});

it('refuses adding a job and editing a job, leaving the queue and the job data as they were', async () => {
  const job = await queueJob();
  const before = await t.ctx.queue.getJobCounts();
  const edit = await operator.agent
    .patch(board(`/${job.id}/update-data`))
    .send({ jobData: { jobId: job.id, userId: 'someone-else', inputKey: 'uploads/other/x.png' } });
  expect([edit.status, edit.body.code, edit.body.message]).toEqual([403, 'forbidden', QUEUE_BOARD_REFUSED]);
  const add = await operator.agent.post(board('/add')).send({ name: 'upscale', data: { userId: 'x' }, options: {} });
  expect([add.status, add.body.code]).toEqual([403, 'forbidden']);
  for (const refused of [board(`/${job.id}/priority`), board(`/${job.id}/delay`)])
    expect((await operator.agent.patch(refused).send({ priority: 1, delay: 1 })).status).toBe(403);
  for (const refused of [board('/empty'), board('/obliterate'), board('/concurrency')])
    expect((await operator.agent.put(refused).send({})).status).toBe(403);
  expect((await t.ctx.queue.getJob(job.id))?.data).toMatchObject({ userId: job.userId });
  expect(await t.ctx.queue.getJobCounts()).toEqual(before);
});

it('audits each allowed change under its own name, with its job or queue and the counts of bulk actions', async () => {
  const delayed = await queueJob({ delay: 60_000 });
  await operator.agent.put(board(`/${delayed.id}/promote`)).expect(ok);
  const waiting = await queueJob();
  await operator.agent.put(board(`/${waiting.id}/clean`)).expect(ok);
  await queueJob({ delay: 60_000 });
  await operator.agent.put(board('/promote')).expect(ok);
  await operator.agent.put(board('/retry/failed')).expect(ok);
  await operator.agent.put(board('/clean/completed')).expect(ok);

  const [promote] = await auditRows('queues.job.promote', 1);
  expect(promote).toMatchObject({ target: `job:${delayed.id}`, details: { queue: QUEUE_NAME } });
  const [clean] = await auditRows('queues.job.clean', 1);
  expect(clean).toMatchObject({ target: `job:${waiting.id}` });
  const [promoteAll] = await auditRows('queues.promote-all', 1);
  expect(promoteAll).toMatchObject({ target: `queue:${QUEUE_NAME}`, details: { jobs_before: 1 } });
  const [retryAll] = await auditRows('queues.retry-all', 1);
  expect(retryAll).toMatchObject({
    target: `queue:${QUEUE_NAME}`,
    details: { status: 'failed', jobs_before: 0, retried: 0, skipped: 0 },
  });
  const [cleanAll] = await auditRows('queues.clean-all', 1);
  expect(cleanAll).toMatchObject({ target: `queue:${QUEUE_NAME}`, details: { status: 'completed', jobs_before: 0 } });
  // Nothing is labelled by the last segment of a path any more.
  expect(await auditRows('queues.failed', 0)).toEqual([]);
});

it('audits reads of customers job data once per set of jobs seen, and failed password confirmations', async () => {
  const job = await queueJob();
  const list = `/admin/queues/api/queues?activeQueue=${QUEUE_NAME}&status=waiting&page=1&jobsPerPage=50`;
  await operator.agent.get(list).expect(200);
  // The board reloads its page every few seconds: the same jobs seen again are not recorded again.
  await operator.agent.get(list).expect(200);
  const lists = await auditRows('queues.list', 1);
  expect(lists).toHaveLength(1);
  expect(lists[0]).toMatchObject({ target: `queue:${QUEUE_NAME}`, details: { status: 'waiting' } });
  expect(lists[0].details.jobs).toContain(job.id);
  expect(lists[0].details.users).toContain(job.userId);
  // The counts alone (no queue opened) show no customer's data.
  await operator.agent.get('/admin/queues/api/queues').expect(200);
  expect(await auditRows('queues.list', 2)).toHaveLength(1);

  await operator.agent.get(board(`/${job.id}`)).expect(200);
  const [view] = await auditRows('queues.job.view', 1);
  expect(view).toMatchObject({ target: `job:${job.id}`, details: { queue: QUEUE_NAME, user_id: job.userId } });

  const wrong = await operator.agent.post('/api/admin/confirm-password').send({ password: 'not-the-password' });
  expect(wrong.status).toBe(422);
  const [failed] = await auditRows('session.confirm-password.failed', 1);
  expect(failed).toMatchObject({ target: `user:${operator.user.id}`, details: { reason: 'validation_failed' } });
});
