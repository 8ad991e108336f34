import fs from 'node:fs';
import sharp from 'sharp';
import {
  MATTE_DRAFT_MAX_POINTS,
  MATTE_DRAFT_MAX_STROKES,
  MATTE_DRAFT_MESSAGES,
  routes,
  type MatteDraftStroke,
} from '@imagestudio/contracts';
import { fromProjectRoot } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from './job-events';
import { removeJobFiles } from './job-files';
import type { JobRow } from './jobs.repository';
import { cutoutJob } from './cutout.test-support';
import { workerFor } from './jobs.test-support';

/** The touch-up brush's draft (matte-draft.service.ts): the owner's, capped, gone with the job's files. */

const COFFEE = fs.readFileSync(fromProjectRoot('worker/src/test-support/fixtures/coffee-300.png'));

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let cutout: Buffer;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  // The test worker takes an upload's own alpha as its matte: any PNG with alpha gives a stored cut-out.
  cutout = await sharp(COFFEE).ensureAlpha().png().toBuffer();
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const STROKES: MatteDraftStroke[] = [
  {
    mode: 'erase',
    size: 12.5,
    points: [
      [10, 20.3],
      [40.1, 22],
      [-3, 80],
    ],
  },
  { mode: 'restore', size: 4, points: [[150, 100]] },
];

async function draftRows(jobId: string): Promise<number> {
  const rows: unknown[] = await t.ctx.db('matte_drafts').where({ job_id: jobId }).select('job_id');
  return rows.length;
}

describe('the touch-up draft', () => {
  it('is empty at first, saved whole, read back exactly, replaced by the next save and discarded', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const path = `/api/jobs/${job.id}/matte-draft`;

    const empty = await agent.get(path).expect(200);
    expect(empty.body.payload).toEqual({ strokes: [], updated_at: null });
    expectReplyMatchesSchema(routes.jobs.matteDraft, empty.body);

    const saved = await agent.put(path).send({ strokes: STROKES }).expect(200);
    expect(saved.body.payload.strokes).toEqual(STROKES);
    expect(Date.parse(saved.body.payload.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    expectReplyMatchesSchema(routes.jobs.saveMatteDraft, saved.body);
    expect((await agent.get(path).expect(200)).body.payload.strokes).toEqual(STROKES);

    await agent
      .put(path)
      .send({ strokes: [STROKES[1]] })
      .expect(200);
    expect((await agent.get(path).expect(200)).body.payload.strokes).toEqual([STROKES[1]]);
    expect(await draftRows(job.id)).toBe(1);

    const discarded = await agent.delete(path).expect(200);
    expect(discarded.body.payload).toEqual({ strokes: [], updated_at: null });
    expect(await draftRows(job.id)).toBe(0);
    // Saving nothing is allowed too (undo back to the stored matte).
    await agent.put(path).send({ strokes: [] }).expect(200);
  });

  it("is the owner's only: another user's job and an unknown id are the same 404, and nothing is written", async () => {
    const { agent: owner } = await verifiedUser(t, { balanceTokens: 5 });
    const { agent: other } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(owner, cutout);
    const path = `/api/jobs/${job.id}/matte-draft`;
    await owner.put(path).send({ strokes: STROKES }).expect(200);

    for (const res of [
      await other.get(path),
      await other.put(path).send({ strokes: [STROKES[1]] }),
      await other.delete(path),
      await owner.get('/api/jobs/00000000-0000-4000-8000-000000000000/matte-draft'),
    ])
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    expect((await owner.get(path).expect(200)).body.payload.strokes).toEqual(STROKES);
  });

  it('refuses drafts past the caps and malformed strokes with 422 on strokes', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const path = `/api/jobs/${job.id}/matte-draft`;
    const dot: MatteDraftStroke = { mode: 'erase', size: 3, points: [[1, 1]] };

    const tooMany = await agent
      .put(path)
      .send({ strokes: Array.from({ length: MATTE_DRAFT_MAX_STROKES + 1 }, () => dot) })
      .expect(422);
    expect(tooMany.body.errors.strokes).toEqual([MATTE_DRAFT_MESSAGES.tooManyStrokes]);

    // The points cap counts every stroke's points: two strokes of half the cap and one more point.
    const half = Math.ceil(MATTE_DRAFT_MAX_POINTS / 2);
    const long = (n: number): MatteDraftStroke => ({
      mode: 'restore',
      size: 3,
      points: Array.from({ length: n }, (_, i) => [i % 300, 1] as [number, number]),
    });
    const tooLong = await agent
      .put(path)
      .send({ strokes: [long(half), long(MATTE_DRAFT_MAX_POINTS - half + 1)] })
      .expect(422);
    expect(tooLong.body.errors.strokes).toEqual([MATTE_DRAFT_MESSAGES.tooManyPoints]);
    // Exactly at the cap it fits, and within the API's JSON body limit.
    await agent
      .put(path)
      .send({ strokes: [long(half), long(MATTE_DRAFT_MAX_POINTS - half)] })
      .expect(200);

    for (const bad of [
      { ...dot, mode: 'paint' },
      { ...dot, size: 0 },
      { ...dot, points: [] },
      { ...dot, points: [[1, 2, 3]] },
      { ...dot, points: [[1, 'x']] },
      { ...dot, points: [[1, 1e9]] },
    ]) {
      const res = await agent
        .put(path)
        .send({ strokes: [dot, bad] })
        .expect(422);
      expect(Object.values(res.body.errors as Record<string, string[]>).flat()).toContain(MATTE_DRAFT_MESSAGES.stroke);
      expect(Object.keys(res.body.errors).every((field) => field.startsWith('strokes.1'))).toBe(true);
    }
    const missing = await agent.put(path).send({}).expect(422);
    expect(Object.keys(missing.body.errors)).toEqual(['strokes']);
    // The last good save is what stays.
    expect((await agent.get(path).expect(200)).body.payload.strokes).toHaveLength(2);
  });

  it('goes with the job when its files are deleted, and a later save is a 404', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const path = `/api/jobs/${job.id}/matte-draft`;
    await agent.put(path).send({ strokes: STROKES }).expect(200);
    expect(await draftRows(job.id)).toBe(1);

    await agent.delete(`/api/jobs/${job.id}`).expect(200);
    expect(await draftRows(job.id)).toBe(0);
    expect((await agent.get(path)).status).toBe(404);
    expect((await agent.put(path).send({ strokes: STROKES })).status).toBe(404);
    expect(await draftRows(job.id)).toBe(0);
  });

  it('goes with the job when retention expires its files', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    await agent.put(`/api/jobs/${job.id}/matte-draft`).send({ strokes: STROKES }).expect(200);
    // What retention does to each job past its days (retention.ts), on this job alone: the test database is shared.
    const row = (await t.ctx.db('image_jobs').where({ id: job.id }).first()) as JobRow;
    await removeJobFiles(t.ctx, row, 'expired_at');
    expect(await draftRows(job.id)).toBe(0);
    expect((await agent.get(`/api/jobs/${job.id}/matte-draft`)).status).toBe(404);
  });

  it('is refused for a job that is not a background removal with its stored cut-out', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    // The same row as another tool: the editor has nothing to touch up there.
    await t.ctx.db('image_jobs').where({ id: job.id, user_id: user.id }).update({ tool: 'upscale' });
    expect((await agent.put(`/api/jobs/${job.id}/matte-draft`).send({ strokes: STROKES })).status).toBe(404);
    expect(await draftRows(job.id)).toBe(0);
  });
});
