import type { Config } from '../../config';
import { escapeHtml, type MailMessage } from '../mail/mailer';
import { verificationUrl } from './verification-links';

/** The "verify your email" message with its signed link. */
export function verificationMail(config: Config, user: { id: string; email: string; name: string }): MailMessage {
  const url = verificationUrl(config, user.id, user.email);
  const greeting = user.name ? `Hello ${user.name},` : 'Hello,';
  return {
    to: user.email,
    subject: 'Verify your email address',
    text: `${greeting}\n\nPlease confirm your email address by opening this link (valid for 24 hours):\n${url}\n\nIf you did not create an account, ignore this email.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>Please confirm your email address (the link is valid for 24 hours):</p><p><a href="${escapeHtml(url)}">Verify email address</a></p><p>If you did not create an account, ignore this email.</p>`,
    links: { verify: url },
  };
}
