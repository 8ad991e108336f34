import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { money } from '../jobs/jobs.test-support';
import { solidImage } from './test-images';
import { UPLOAD_BUSY_MESSAGE, UploadMemoryBudget } from './upload-memory';

/** A response that only closes (the budget listens for nothing else). */
const closable = () => new EventEmitter() as unknown as Response;

describe('UploadMemoryBudget', () => {
  it('reserves until the response closes, refuses what would pass the limit, and always lets one upload in', () => {
    const budget = new UploadMemoryBudget(100);
    const first = closable();
    expect(budget.reserveUntilClosed(first, 70)).toBe(true);
    expect(budget.reserveUntilClosed(closable(), 40)).toBe(false);
    expect(budget.reservedBytes).toBe(70);
    const second = closable();
    expect(budget.reserveUntilClosed(second, 30)).toBe(true);
    expect(budget.reservedBytes).toBe(100);
    first.emit('close');
    expect(budget.reservedBytes).toBe(30);
    second.emit('close');
    // Nothing else held: even an upload larger than the whole budget is let in, and given back afterwards.
    const big = closable();
    expect(budget.reserveUntilClosed(big, 500)).toBe(true);
    big.emit('close');
    expect(budget.reservedBytes).toBe(0);
  });
});

describe('uploads while the upload memory is taken', () => {
  let t: TestContext;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', UPLOAD_MEMORY_MB: '1' });
    png = await solidImage('png', 16, 16);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers 503 with Retry-After before reading or charging, in the request language, and accepts once memory is free', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const budget = t.ctx.services.uploadMemory;
    // Another upload holds almost all of the 1 MB.
    const other = closable();
    expect(budget.reserveUntilClosed(other, 1024 * 1024 - 100)).toBe(true);

    const single = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(single.status).toBe(503);
    expect(single.headers['retry-after']).toBe('30');
    expect(single.body).toEqual({ status: 'ERROR', code: 'service_unavailable', message: UPLOAD_BUSY_MESSAGE });
    // The body is never read, so the language comes from the query (or Accept-Language), not a form field.
    const batch = await agent
      .post('/api/batches?lang_id=de')
      .field('tool', 'upscale')
      .attach('images', png, 'a.png')
      .attach('images', png, 'b.png');
    expect(batch.status).toBe(503);
    expect(batch.body.message).toBe(
      'Gerade treffen zu viele große Uploads ein. Bitte versuchen Sie es in einer Minute erneut.',
    );
    expect((await money(t, user.id)).balance).toBe(50);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
    // Refused requests gave nothing back that they had not taken.
    expect(budget.reservedBytes).toBe(1024 * 1024 - 100);

    other.emit('close');
    // No worker runs in this test: a form that got past the memory check reaches the availability check.
    const after = await agent.post('/api/tools/upscale').field('factor', '2').attach('image', png, 'a.png');
    expect(after.body.code).toBe('tool_unavailable');
    expect(budget.reservedBytes).toBe(0);
  });
});
