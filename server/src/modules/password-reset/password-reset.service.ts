import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCOUNT_MESSAGES, type RestorePasswordInput } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { namespaceTexts } from '../catalog';
import { escapeHtml, type MailMessage } from '../mail';
import { usersRepository as users, type PasswordChangeOrigin } from '../users';
import * as repo from './password-reset.repository';
import type { PasswordResetDeps } from './password-reset.deps';
import { tellPasswordChanged } from './password-changed-mail';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The reset link, in the customer's language. */
async function resetMail(
  ctx: PasswordResetDeps,
  user: { email: string; lang: string | null },
  token: string,
): Promise<MailMessage> {
  const text = await namespaceTexts(ctx, user.lang ?? undefined, 'mail');
  const url = `${ctx.config.APP_URL}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
  return {
    to: user.email,
    subject: text('reset.subject'),
    text: `${text('reset.lead')}\n${url}\n\n${text('reset.ignore')}\n`,
    html: `<p>${escapeHtml(text('reset.lead'))}</p><p><a href="${escapeHtml(url)}">${escapeHtml(text('reset.button'))}</a></p><p>${escapeHtml(text('reset.ignore'))}</p>`,
    links: { reset: url },
  };
}

/**
 * Starts a reset for `email`. The caller answers the same whatever happens here, and this runs in the
 * background, so neither the reply nor its timing tells whether an account exists. A new token
 * (256 random bits, stored as SHA-256) replaces any older one.
 */
export function requestPasswordReset(ctx: PasswordResetDeps, email: string): void {
  const work = async () => {
    const user = await users.findByEmail(ctx.db, email);
    if (!user || user.disabled_at) return;
    const token = randomBytes(32).toString('base64url');
    await repo.replaceToken(ctx.db, user.id, sha256(token), new Date(Date.now() + RESET_TOKEN_TTL_MS));
    await ctx.services.mailer.send(await resetMail(ctx, user, token));
  };
  work().catch((err: unknown) =>
    ctx.logger.error({ err, component: 'password-reset' }, 'password reset request failed'),
  );
}

/**
 * Sets a new password with a reset token: it must be the user's latest, unexpired and unused (single
 * use even under concurrency). Bumps the session epoch, so every session of the user ends, and mails the
 * customer that the password changed (`origin`: when, from where).
 */
export async function resetPassword(
  ctx: PasswordResetDeps,
  input: RestorePasswordInput,
  origin: PasswordChangeOrigin,
): Promise<void> {
  const invalid = () => validationError({ token: [ACCOUNT_MESSAGES.resetLinkInvalid] });
  const user = await users.findByEmail(ctx.db, input.email);
  if (!user || user.disabled_at) throw invalid();
  const row = await repo.findByUser(ctx.db, user.id);
  const given = Buffer.from(sha256(input.token), 'hex');
  if (!row || row.expires_at.getTime() < Date.now() || !timingSafeEqual(given, Buffer.from(row.token_hash, 'hex')))
    throw invalid();
  const passwordHash = await ctx.services.passwords.hash(input.password);
  await ctx.db.transaction(async (trx) => {
    if (!(await repo.consumeToken(trx, user.id, row.token_hash))) throw invalid();
    await users.updatePassword(trx, user.id, passwordHash);
  });
  tellPasswordChanged(ctx, user, origin);
}
