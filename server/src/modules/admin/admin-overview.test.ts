import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser, type VerifiedUser } from '../../test/auth-helpers';

let t: TestContext;
let admin: VerifiedUser;

beforeAll(async () => {
  t = await createTestContext();
  admin = await verifiedUser(t);
  await t.ctx.db('users').where({ id: admin.user.id }).update({ role: 'admin' });
});
afterAll(() => t.close());

it("counts a cancelled job in the overview's queue table as cancelled, not as failed", async () => {
  const held = {
    delayed: [],
    failed: [
      { name: 'upscale', failedReason: 'cancelled' },
      { name: 'upscale', failedReason: 'cancelled' },
      { name: 'upscale', failedReason: 'The image could not be decoded.' },
    ],
  };
  const spy = jest
    .spyOn(t.ctx.queue, 'getJobs')
    .mockImplementation(async (types) => held[(types as string[])[0] as 'failed'] as never);
  try {
    const overview = (await admin.agent.get('/api/admin/overview').expect(200)).body.payload;
    const upscale = overview.queues.find((q: { tool: string }) => q.tool === 'upscale');
    expect([upscale.failed, upscale.cancelled]).toEqual([1, 2]);
  } finally {
    spy.mockRestore();
  }
});
