import { createHash, randomBytes } from 'node:crypto';
import {
  ACCOUNT_MESSAGES,
  EMAIL_CHANGE_MESSAGES,
  EMAIL_CHANGE_TTL_MS,
  type EmailChangeInput,
  type EmailChangeOutcome,
} from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { notFound, validationError } from '../../lib/errors';
import { namespaceTexts } from '../catalog';
import { escapeHtml, type MailMessage } from '../mail';
import { usersRepository as users } from '../users';
import * as repo from './email-change.repository';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The confirmation link: a browser navigation to the API, which then sends the browser to the profile. */
export function confirmUrl(ctx: AppContext, token: string): string {
  return `${ctx.config.APP_URL}/api/user/change-email/confirm?token=${encodeURIComponent(token)}`;
}

/** The mail to the new address with its confirmation link, in the customer's language. */
async function confirmMail(
  ctx: AppContext,
  user: { name: string; lang: string | null },
  newEmail: string,
  token: string,
): Promise<MailMessage> {
  const text = await namespaceTexts(ctx, user.lang ?? undefined, 'mail');
  const url = confirmUrl(ctx, token);
  const greeting = user.name ? text('greeting', { name: user.name }) : text('greetingPlain');
  return {
    to: newEmail,
    subject: text('emailChange.subject'),
    text: `${greeting}\n\n${text('emailChange.lead')}\n${url}\n\n${text('emailChange.ignore')}\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(text('emailChange.lead'))}</p><p><a href="${escapeHtml(url)}">${escapeHtml(text('emailChange.button'))}</a></p><p>${escapeHtml(text('emailChange.ignore'))}</p>`,
    links: { confirm: url },
  };
}

/** The notice to the old address once the change is made, in the customer's language. */
async function changedMail(
  ctx: AppContext,
  user: { name: string; lang: string | null },
  oldEmail: string,
  newEmail: string,
): Promise<MailMessage> {
  const text = await namespaceTexts(ctx, user.lang ?? undefined, 'mail');
  const greeting = user.name ? text('greeting', { name: user.name }) : text('greetingPlain');
  const body = text('emailChanged.text', { email: newEmail });
  const help = text('emailChanged.help');
  return {
    to: oldEmail,
    subject: text('emailChanged.subject'),
    text: `${greeting}\n\n${body}\n\n${help}\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p><p>${escapeHtml(help)}</p>`,
    links: {},
  };
}

/**
 * Starts a change of the user's email address: the current password must be right (argon2, as at sign-in) and
 * the new address free and different. A link (256 random bits, stored as SHA-256) goes to the new address; a
 * newer request voids the older link. Nothing changes until the link is opened.
 */
export async function requestEmailChange(ctx: AppContext, userId: string, input: EmailChangeInput): Promise<void> {
  const user = await users.findById(ctx.db, userId);
  if (!user) throw notFound();
  if (!(await ctx.services.passwords.verify(user.password_hash, input.current_password))) {
    throw validationError({ current_password: [ACCOUNT_MESSAGES.currentPasswordWrong] });
  }
  if (input.email.toLowerCase() === user.email.toLowerCase()) {
    throw validationError({ email: [EMAIL_CHANGE_MESSAGES.sameEmail] });
  }
  if (await users.findByEmail(ctx.db, input.email)) throw validationError({ email: [ACCOUNT_MESSAGES.emailTaken] });
  const token = randomBytes(32).toString('base64url');
  await repo.replacePending(ctx.db, {
    user_id: user.id,
    new_email: input.email,
    token_hash: sha256(token),
    expires_at: new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
  });
  ctx.services.mailer.dispatch(await confirmMail(ctx, user, input.email, token));
}

/**
 * Makes the change a link confirms (once; an expired or replaced link is `invalid`, an address someone took
 * meanwhile `taken`) and tells the old address. Sessions stay signed in: the password did not change.
 */
export async function confirmEmailChange(ctx: AppContext, token: string): Promise<EmailChangeOutcome> {
  const pending = await repo.takePending(ctx.db, sha256(token));
  if (!pending || pending.expires_at.getTime() < Date.now()) return 'invalid';
  const user = await users.findById(ctx.db, pending.user_id);
  if (!user || user.disabled_at) return 'invalid';
  try {
    await repo.updateEmail(ctx.db, user.id, pending.new_email);
  } catch (err) {
    if (users.isUniqueViolation(err)) return 'taken';
    throw err;
  }
  ctx.services.mailer.dispatch(await changedMail(ctx, user, user.email, pending.new_email));
  return 'changed';
}
