import { z } from 'zod';
import { passwordSchema } from './password-schema';

/**
 * Account payloads with their user-facing messages (docs/product-behaviour.md). The server applies these schemas
 * (plus checks that need I/O, such as phone-number validity and email uniqueness); the client may reuse
 * them for its own pre-checks.
 */
export const ACCOUNT_MESSAGES = {
  nameRequired: 'Name is required',
  surnameRequired: 'Surname is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTaken: 'The email has already been taken.',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number',
  confirmRequired: 'Please confirm your password',
  passwordsMismatch: 'Passwords do not match',
  loginRequired: 'Email and password are required',
  loginEmailInvalid: 'Invalid email format',
  badCredentials: 'These credentials do not match our records.',
  registrationDisabled: 'Registration is currently disabled.',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'The current password is incorrect.',
  passwordUpdated: 'Password updated successfully',
  resetEmailRequired: 'Please enter your email address',
  resetLinkSent: 'Password reset link sent. Please check your email.',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  passwordReset: 'Password reset successfully',
  verificationSent: 'A new verification link has been sent to your email address.',
  alreadyVerified: 'Your email address is already verified.',
  /** The resend cool-down; {n} is whole minutes (the server fills it, the strings translate it). */
  verificationCooldown: 'You can ask for another link in {n} minutes.',
  emailNotVerified: 'Your email address is not verified.',
  tooLong: (field: string, max: number) => `${field} may not be greater than ${max} characters.`,
} as const;

/** Longest accepted text per field; the database has no length limits of its own. */
export const ACCOUNT_LIMITS = { name: 100, email: 254, phone: 25, city: 100, address: 255, postCode: 20 } as const;

const m = ACCOUNT_MESSAGES;

/** A trimmed required string: missing, non-string and blank all give `required`. */
function requiredText(required: string, max: number, label: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: m.tooLong(label, max) });
}

/** An optional trimmed string; null and missing become ''. */
function optionalText(max: number, label: string) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, { error: m.tooLong(label, max) })
    .nullish()
    .transform((v) => v ?? '');
}

/** Email: required, a plausible address, at most 254 characters; stored as typed, compared case-insensitively. */
export const emailSchema = z
  .string({ error: m.emailRequired })
  .trim()
  .min(1, { error: m.emailRequired })
  .max(ACCOUNT_LIMITS.email, { error: m.emailInvalid })
  .pipe(z.email({ error: m.emailInvalid }));

/** Adds "Passwords do not match" to both fields when password and password_confirmation differ. */
function confirmPasswords(value: { password?: unknown; password_confirmation?: unknown }, ctx: z.RefinementCtx) {
  if (
    typeof value.password === 'string' &&
    typeof value.password_confirmation === 'string' &&
    value.password_confirmation !== ''
  ) {
    if (value.password !== value.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: m.passwordsMismatch });
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: m.passwordsMismatch });
    }
  }
}

const confirmationSchema = z.string({ error: m.confirmRequired }).min(1, { error: m.confirmRequired });

/** POST /api/register. Unknown keys (role, balance...) are dropped: mass assignment is ignored. */
export const registerSchema = z
  .object({
    name: requiredText(m.nameRequired, ACCOUNT_LIMITS.name, 'Name'),
    surname: requiredText(m.surnameRequired, ACCOUNT_LIMITS.name, 'Surname'),
    email: emailSchema,
    phone: requiredText(m.phoneRequired, ACCOUNT_LIMITS.phone, 'Phone'),
    phoneE164: z.string().trim().max(ACCOUNT_LIMITS.phone).nullish(),
    password: passwordSchema,
    password_confirmation: confirmationSchema,
  })
  .superRefine(confirmPasswords);
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /api/login: `username` is the email, as the client sends it. */
export const loginSchema = z.object({
  username: z
    .string({ error: m.loginRequired })
    .trim()
    .min(1, { error: m.loginRequired })
    .max(ACCOUNT_LIMITS.email, { error: m.loginEmailInvalid }),
  password: z
    .string({ error: m.loginRequired })
    .min(1, { error: m.loginRequired })
    .max(200, { error: m.badCredentials }),
  remember: z
    .union([z.boolean(), z.literal('true'), z.literal('false'), z.literal('1'), z.literal('0'), z.literal('on')])
    .optional()
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'on'),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** PUT /api/user/profile: email, balance and role are not part of it and are ignored when sent. */
export const profileUpdateSchema = z.object({
  name: requiredText(m.nameRequired, ACCOUNT_LIMITS.name, 'Name'),
  surname: requiredText(m.surnameRequired, ACCOUNT_LIMITS.name, 'Surname'),
  phone: requiredText(m.phoneRequired, ACCOUNT_LIMITS.phone, 'Phone'),
  /** The phone in E.164 form as the client's phone input reads it (with its country); checked again. */
  phoneE164: z.string().max(ACCOUNT_LIMITS.phone).nullish(),
  country_id: z.coerce
    .number({ error: 'The selected country is invalid.' })
    .int({ error: 'The selected country is invalid.' })
    .positive({ error: 'The selected country is invalid.' })
    .nullish(),
  city: optionalText(ACCOUNT_LIMITS.city, 'City'),
  address: optionalText(ACCOUNT_LIMITS.address, 'Address'),
  post_code: optionalText(ACCOUNT_LIMITS.postCode, 'Post code'),
});
export type ProfileUpdateInput = z.infer<typeof profileUpdateSchema>;

/** POST /api/user/change-password. */
export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: m.currentPasswordRequired }).min(1, { error: m.currentPasswordRequired }),
    password: passwordSchema,
    password_confirmation: confirmationSchema,
  })
  .superRefine(confirmPasswords);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** GET or POST /api/user/request-password-restore. */
export const resetRequestSchema = z.object({
  email: z
    .string({ error: m.resetEmailRequired })
    .trim()
    .min(1, { error: m.resetEmailRequired })
    .max(ACCOUNT_LIMITS.email, { error: m.emailInvalid })
    .pipe(z.email({ error: m.emailInvalid })),
});

/** PUT /api/user/restore-password. */
export const restorePasswordSchema = z
  .object({
    token: z
      .string({ error: m.resetLinkInvalid })
      .min(1, { error: m.resetLinkInvalid })
      .max(200, { error: m.resetLinkInvalid }),
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: confirmationSchema,
  })
  .superRefine(confirmPasswords);
export type RestorePasswordInput = z.infer<typeof restorePasswordSchema>;
