import { ACCOUNT_MESSAGES, type RegisterInput } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import { AppError, validationError } from '../../lib/errors';
import { sendVerificationMail } from '../email-verification';
import { applyEntry } from '../ledger';
import { usersRepository as users } from '../users';
import { readAccountSettings, type AccountSettings } from './account-settings';
import { normalizePhone } from '../../lib/phone';
import type { AuthDeps } from './auth.deps';

/** The free tokens every account starts with, in tenths. */
export const FREE_SIGNUP_TENTHS = 100;

/** Idempotency keys of the two registration grants: each can exist once per user. */
export const signupGrantKey = (userId: string) => `signup:${userId}`;
export const welcomeGrantKey = (userId: string) => `welcome:${userId}`;

const emailTaken = () => validationError({ email: [ACCOUNT_MESSAGES.emailTaken] });

/** 403 "Registration is currently disabled." when the setting is_reg_enabled is off; else the settings. */
export async function assertRegistrationOpen(ctx: AuthDeps): Promise<AccountSettings> {
  const settings = await readAccountSettings(ctx);
  if (!settings.isRegEnabled) throw new AppError('registration_disabled', ACCOUNT_MESSAGES.registrationDisabled);
  return settings;
}

/**
 * Creates an account (the switch is the caller's: see assertRegistrationOpen): checks the phone and the email's uniqueness (any letter
 * case; the unique index settles races), hashes the password with argon2id and, in the same
 * transaction, grants the free tokens and the welcome bonus through the ledger; then mails the
 * verification link in `lang` (the language code the customer signed up in, kept for later emails).
 */
export async function registerUser(
  ctx: AuthDeps,
  input: RegisterInput,
  settings?: AccountSettings,
  lang?: string,
): Promise<users.UserRow> {
  settings ??= await readAccountSettings(ctx);
  const phoneE164 = normalizePhone(input.phone, input.phoneE164);
  if (!phoneE164) throw validationError({ phone: [ACCOUNT_MESSAGES.phoneInvalid] });
  if (await users.findByEmail(ctx.db, input.email)) throw emailTaken();

  const passwordHash = await ctx.services.passwords.hash(input.password);
  let created: users.UserRow;
  try {
    created = await ctx.db.transaction(async (trx) => {
      const user = await users.insertUser(trx, {
        email: input.email,
        name: input.name,
        surname: input.surname,
        phone: input.phone,
        phone_e164: phoneE164,
        password_hash: passwordHash,
        lang: lang ?? null,
      });
      await applyEntry(trx, {
        userId: user.id,
        deltaTenths: FREE_SIGNUP_TENTHS,
        kind: 'grant',
        idempotencyKey: signupGrantKey(user.id),
        reason: 'Free tokens',
      });
      if (settings.welcomeBonusTenths > 0) {
        await applyEntry(trx, {
          userId: user.id,
          deltaTenths: settings.welcomeBonusTenths,
          kind: 'grant',
          idempotencyKey: welcomeGrantKey(user.id),
          reason: 'Welcome bonus',
        });
      }
      return (await users.findById(trx, user.id)) as users.UserRow;
    });
  } catch (err) {
    if (users.isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  await sendVerificationMail(ctx, created);
  return created;
}

/** What a sign-in attempt comes to: the user, a disabled account (right password only), or wrong credentials. */
type CredentialCheck = { user: users.UserRow } | { disabled: true } | null;

/**
 * Checks an email and password. Unknown emails are checked against a dummy hash so they cost the same
 * time as known ones. A disabled account answers like a wrong password unless the password was right:
 * only someone who knows it learns the account's state.
 */
export async function verifyCredentials(
  ctx: Pick<AppContext, 'db'> & { services: Pick<AppServices, 'passwords'> },
  email: string,
  password: string,
): Promise<CredentialCheck> {
  const user = await users.findByEmail(ctx.db, email.trim());
  const ok = await ctx.services.passwords.verify(user ? user.password_hash : null, password);
  if (!ok || !user) return null;
  return user.disabled_at ? { disabled: true } : { user };
}
