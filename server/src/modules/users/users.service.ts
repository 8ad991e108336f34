import {
  ACCOUNT_MESSAGES,
  tenthsToTokens,
  type ChangePasswordInput,
  type ProfileUpdateInput,
} from '@imagestudio/contracts';
import { notFound, validationError } from '../../lib/errors';
import { findCountry } from '../catalog';
import { normalizePhone } from '../../lib/phone';
import * as users from './users.repository';
import type { ProfileView } from '@imagestudio/contracts';
import type { UsersDeps } from './users.deps';
import type { PasswordChangeOrigin } from './password-change-origin';

/** The profile as GET /api/user/profile sends it. */
/**
 * Presents a user row (as loaded for this request) as the profile, balance in tokens (exact to 0.1). The row is
 * the one the session check read in this request, so the balance is live; the country comes from the cache.
 */
export async function presentProfile(ctx: UsersDeps, row: Omit<users.UserRow, 'password_hash'>): Promise<ProfileView> {
  const country = row.country_id === null ? null : await findCountry(ctx, row.country_id);
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    email: row.email,
    phone: row.phone,
    phoneE164: row.phone_e164,
    balance: tenthsToTokens(row.balance_tenths),
    avatarUrl: row.avatar_url,
    created_at: row.created_at.toISOString(),
    country,
    city: row.city,
    address: row.address,
    post_code: row.post_code,
    email_verified: row.email_verified_at !== null,
    // Only an operator's profile says so; a customer's has no role field (the console is not advertised).
    ...(row.role === 'admin' ? { role: 'admin' as const } : {}),
  };
}

/** Reads a user's profile from the database (after a change made in this request). */
export async function getProfile(ctx: UsersDeps, userId: string): Promise<ProfileView> {
  const row = await users.findById(ctx.db, userId);
  if (!row) throw notFound();
  return presentProfile(ctx, row);
}

/** Updates the editable profile fields only (email, balance and role are never touched here). */
export async function updateProfile(ctx: UsersDeps, userId: string, input: ProfileUpdateInput): Promise<void> {
  const current = await users.findById(ctx.db, userId);
  // An unchanged phone keeps the international form stored at registration, however it was typed then;
  // a new one is read with its country (the client's E.164 reading, else the typed text).
  const phoneE164 =
    current && current.phone === input.phone && current.phone_e164
      ? current.phone_e164
      : normalizePhone(input.phone, input.phoneE164);
  if (!phoneE164) throw validationError({ phone: [ACCOUNT_MESSAGES.phoneInvalid] });
  const countryId = input.country_id ?? null;
  if (countryId !== null && !(await findCountry(ctx, countryId))) {
    throw validationError({ country_id: ['The selected country is invalid.'] });
  }
  await users.updateProfile(ctx.db, userId, {
    name: input.name,
    surname: input.surname,
    phone: input.phone,
    phone_e164: phoneE164,
    country_id: countryId,
    city: input.city,
    address: input.address,
    post_code: input.post_code,
  });
}

/**
 * Checks the current password and stores the new one; the session epoch moves on, so every other
 * session of the user ends (the caller signs the current one in again), and the customer is mailed that the
 * password changed (`origin`: when, from where). Returns the updated user.
 */
export async function changePassword(
  ctx: UsersDeps,
  userId: string,
  input: ChangePasswordInput,
  origin: PasswordChangeOrigin,
): Promise<users.UserRow> {
  const row = await users.findById(ctx.db, userId);
  if (!row) throw notFound();
  const hasher = ctx.services.passwords;
  if (!(await hasher.verify(row.password_hash, input.current_password))) {
    throw validationError({ current_password: [ACCOUNT_MESSAGES.currentPasswordWrong] });
  }
  await users.updatePassword(ctx.db, userId, await hasher.hash(input.password));
  ctx.services.passwordChangeNotice(row, origin);
  return (await users.findById(ctx.db, userId)) as users.UserRow;
}
