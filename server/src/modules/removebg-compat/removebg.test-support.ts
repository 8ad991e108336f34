import { createKey } from '../api-keys/api-keys.service';
import type { TestContext } from '../../test/harness';
import { createUser, verifiedUser } from '../../test/auth-helpers';

/** Test support for the remove.bg-compatible API's tests (not a test file itself). */

/** A verified user with `balanceTokens` and one of our API keys, as a remove.bg integration would hold. */
export async function keyHolder(t: TestContext, balanceTokens = 10): Promise<{ userId: string; key: string }> {
  const { user } = await verifiedUser(t, { balanceTokens });
  const { key } = await createKey(t.ctx, user.id, { name: 'remove.bg integration' });
  return { userId: user.id, key };
}

/** A user whose email is not verified yet, with a key. */
export async function unverifiedKeyHolder(t: TestContext): Promise<{ userId: string; key: string }> {
  const { user } = await createUser(t);
  const { key } = await createKey(t.ctx, user.id, { name: 'unverified' });
  return { userId: user.id, key };
}

/** The user's balance (tenths) and how many jobs they have. */
export async function balanceAndJobs(t: TestContext, userId: string): Promise<{ balance: number; jobs: number }> {
  const user = await t.ctx.db('users').where({ id: userId }).first('balance_tenths');
  const jobs = await t.ctx.db('image_jobs').where({ user_id: userId }).count<{ count: string }[]>('* as count');
  return { balance: Number(user.balance_tenths), jobs: Number(jobs[0]!.count) };
}
