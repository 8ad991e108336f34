import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@imagestudio/contracts';
import * as repo from './webhook-secret.repository';
import type { ApiKeysDeps } from './api-keys.deps';

const newSecret = () => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');

/** The user's webhook signing secret, made on first use (concurrent first uses agree on one). */
export async function webhookSecretFor(ctx: ApiKeysDeps, userId: string): Promise<string> {
  const existing = await repo.findSecret(ctx.db, userId);
  if (existing) return existing;
  await repo.insertSecretIfMissing(ctx.db, userId, newSecret());
  return (await repo.findSecret(ctx.db, userId)) as string;
}

/**
 * Replaces the user's secret (it leaked, or staff changed): every webhook signed from now on, retries of
 * older jobs included, uses the new one.
 */
export async function rotateWebhookSecret(ctx: ApiKeysDeps, userId: string): Promise<string> {
  const secret = newSecret();
  await repo.replaceSecret(ctx.db, userId, secret);
  return secret;
}
