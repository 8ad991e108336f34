import { usersRepository as users } from '../users';
import { isValidVerification } from './verification-links';
import { verificationMail } from './verification.mail';
import type { EmailVerificationDeps } from './email-verification.deps';

export type VerifyOutcome = 'verified' | 'already' | 'invalid';

/** Checks a signed verification link and marks the email verified (once). */
export async function verifyEmailLink(
  ctx: EmailVerificationDeps,
  link: { id: string; hash: string; expires: string; signature: string },
): Promise<VerifyOutcome> {
  const user = await users.findById(ctx.db, link.id);
  if (
    !user ||
    !isValidVerification(
      ctx.config,
      { userId: link.id, hash: link.hash, expires: link.expires, signature: link.signature },
      user.email,
    )
  ) {
    return 'invalid';
  }
  if (user.email_verified_at) return 'already';
  return (await users.markEmailVerified(ctx.db, user.id)) ? 'verified' : 'already';
}

/**
 * Mails a verification link (sent in the background), in the customer's language: after registration (the
 * auth module calls this; composing the mail stays here) and when the user asks for a fresh one.
 */
export async function sendVerificationMail(
  ctx: EmailVerificationDeps,
  user: { id: string; email: string; name: string; lang: string | null },
): Promise<void> {
  ctx.services.mailer.dispatch(await verificationMail(ctx, user));
}

/** Mails a fresh verification link when the user (or an operator) asks: the same mail as after registration. */
export function resendVerification(
  ctx: EmailVerificationDeps,
  user: { id: string; email: string; name: string; lang: string | null },
): Promise<void> {
  return sendVerificationMail(ctx, user);
}
