import type { AppContext } from '../../context';
import { usersRepository as users } from '../users';
import { isValidVerification } from './verification-links';
import { verificationMail } from './verification.mail';

export type VerifyOutcome = 'verified' | 'already' | 'invalid';

/** Checks a signed verification link and marks the email verified (once). */
export async function verifyEmailLink(
  ctx: AppContext,
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

/** Mails a fresh verification link (sent in the background), in the customer's language. */
export async function resendVerification(
  ctx: AppContext,
  user: { id: string; email: string; name: string; lang: string | null },
): Promise<void> {
  ctx.services.mailer.dispatch(await verificationMail(ctx, user));
}
