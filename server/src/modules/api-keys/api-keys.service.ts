import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
  MAX_API_KEYS_PER_USER,
  type ApiKeyCreateInput,
  type ApiKeyView,
  type CreatedApiKey,
} from '@imagestudio/contracts';
import { type CurrentUser, toCurrentUser, usersRepository as users } from '../users';
import { notFound, validationError } from '../../lib/errors';
import { isUuid } from '../../lib/ids';
import * as repo from './api-keys.repository';
import type { ApiKeyRow } from './api-keys.repository';
import type { ApiKeysDeps } from './api-keys.deps';

/** 32 random bytes (256 bits) in base64url after the scanner-friendly prefix. */
export function generateKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are stored as their SHA-256: the key has 256 random bits, so a slow hash would add nothing. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function present(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
  };
}

export async function createKey(ctx: ApiKeysDeps, userId: string, input: ApiKeyCreateInput): Promise<CreatedApiKey> {
  const key = generateKey();
  // The user's row is locked while counting, so concurrent creations cannot pass the limit together.
  const row = await ctx.db.transaction(async (trx) => {
    await users.lockUser(trx, userId);
    if ((await repo.listActive(trx, userId)).length >= MAX_API_KEYS_PER_USER)
      throw validationError({ name: [API_KEY_MESSAGES.tooMany] });
    return repo.insertKey(trx, {
      user_id: userId,
      name: input.name,
      key_hash: hashKey(key),
      prefix: key.slice(0, API_KEY_PREFIX.length + API_KEY_SHOWN_CHARS),
      last4: key.slice(-4),
      expires_at: input.expires_at ? new Date(input.expires_at) : null,
    });
  });
  const { last_used_at: _unused, ...view } = present(row);
  return { ...view, key };
}

export async function listKeys(ctx: ApiKeysDeps, userId: string): Promise<ApiKeyView[]> {
  return (await repo.listActive(ctx.db, userId)).map(present);
}

/** Revokes one of the user's keys; another user's key, or an unknown or revoked one, is a 404. */
export async function revokeKey(ctx: ApiKeysDeps, userId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await repo.revoke(ctx.db, userId, id))) throw notFound('API key not found.');
}

/**
 * The key's owner when the key is usable (known, not revoked, not expired) and the account is not
 * disabled; null otherwise. Records the use.
 */
export async function authenticateKey(
  ctx: ApiKeysDeps,
  key: string,
): Promise<{ keyId: string; user: CurrentUser } | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const row = await repo.findUsable(ctx.db, hashKey(key));
  if (!row) return null;
  const user = await users.findById(ctx.db, row.user_id);
  if (!user || user.disabled_at) return null;
  await repo.touchLastUsed(ctx.db, row.id);
  return { keyId: row.id, user: toCurrentUser(user) };
}
