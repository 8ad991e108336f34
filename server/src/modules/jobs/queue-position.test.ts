import { randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../../test/harness';
import { waitListPosition } from './job-presenter';

describe('queue position', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('is 1 for the next job to run and never 0 while workers take jobs from the list', async () => {
    // a scratch list shaped like BullMQ's wait list: pushed on the left, taken from the right
    const key = `test:wait:${randomUUID()}`;
    const redis = t.ctx.queueRedis;
    const ids = Array.from({ length: 300 }, (_, i) => `job-${i}`);
    for (const id of ids) await redis.lPush(key, id);
    expect(await waitListPosition(redis, key, 'job-0')).toBe(1);
    expect(await waitListPosition(redis, key, 'job-299')).toBe(300);
    expect(await waitListPosition(redis, key, 'job-missing')).toBeNull();

    // a "worker" takes jobs while positions are read for every id still in the list
    const seen: Array<number | null> = [];
    const taking = (async () => {
      while ((await redis.rPop(key)) !== null) await new Promise((r) => setImmediate(r));
    })();
    for (let round = 0; round < 5; round++)
      seen.push(...(await Promise.all(ids.map((id) => waitListPosition(redis, key, id)))));
    await taking;
    expect(seen.filter((p) => p !== null && p < 1)).toEqual([]);
    expect(seen.some((p) => p !== null)).toBe(true);
    await redis.del(key);
  });
});
