import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import * as repo from './webhook-secret.repository';

/** The user's webhook signing secret, made on first use (concurrent first uses agree on one). */
export async function webhookSecretFor(ctx: AppContext, userId: string): Promise<string> {
  const existing = await repo.findSecret(ctx.db, userId);
  if (existing) return existing;
  await repo.insertSecretIfMissing(ctx.db, userId, WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url'));
  return (await repo.findSecret(ctx.db, userId)) as string;
}
