import { z } from 'zod';
import { emailSchema } from './auth';

/**
 * Changing the account's email address (POST /api/user/change-email): the customer gives the new address and
 * the current password; a link mailed to the new address makes the change (GET /api/user/change-email/confirm),
 * and the old address is told that it happened.
 */
export const EMAIL_CHANGE_MESSAGES = {
  linkSent: 'We sent a confirmation link to your new address. The change takes effect once you open it.',
  sameEmail: 'This is already your email address.',
  passwordRequired: 'Current password is required',
} as const;

/** How long the confirmation link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

/** Where the confirmation link sends the browser: the profile with `email_change=<outcome>`. */
export const EMAIL_CHANGE_OUTCOMES = ['changed', 'invalid', 'taken'] as const;
export type EmailChangeOutcome = (typeof EMAIL_CHANGE_OUTCOMES)[number];

export const emailChangeSchema = z.object({
  email: emailSchema,
  current_password: z
    .string({ error: EMAIL_CHANGE_MESSAGES.passwordRequired })
    .min(1, { error: EMAIL_CHANGE_MESSAGES.passwordRequired }),
});
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

/** The mailed confirmation link's query: the token as sent (43 URL-safe base64 characters). */
export const emailChangeConfirmSchema = z.object({ token: z.string().regex(/^[\w-]{43}$/) });
