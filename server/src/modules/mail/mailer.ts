import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { fromRoot } from '../../config';
import type { AppDeps } from '../../context';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the message carries, named; the outbox logs them so a local user can follow them. */
  links: Record<string, string>;
}

export interface Mailer {
  /** Sends one message: SMTP when SMTP_URL is set, else one JSON line in MAIL_OUTBOX_FILE. */
  send(message: MailMessage): Promise<void>;
  /** Sends in the background (errors are logged), so a reply never waits on, or reveals, mail delivery. */
  dispatch(message: MailMessage): void;
}

/** The app's mailer (one per app, so its SMTP pool is shared by every module). */
export function createMailer(ctx: Pick<AppDeps, 'config' | 'logger'>): Mailer {
  const log = ctx.logger.child({ module: 'mail' });
  const smtp: Transporter | null = ctx.config.SMTP_URL ? nodemailer.createTransport(ctx.config.SMTP_URL) : null;
  const outbox = fromRoot(ctx.config, ctx.config.MAIL_OUTBOX_FILE);
  if (!smtp) announceOutbox(ctx, log, outbox);

  const send = async (message: MailMessage): Promise<void> => {
    if (smtp) {
      await smtp.sendMail({
        from: ctx.config.MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      log.info({ to: message.to, subject: message.subject }, 'mail sent');
      return;
    }
    await fs.mkdir(path.dirname(outbox), { recursive: true });
    // One appendFile call per message: a single write, so lines from concurrent sends never interleave.
    await fs.appendFile(outbox, `${JSON.stringify({ ...message, at: new Date().toISOString() })}\n`);
    // The links are credentials (reset, verification): logged for a local user to follow, never in production.
    const links = ctx.config.NODE_ENV === 'production' ? undefined : message.links;
    log.info({ to: message.to, subject: message.subject, links, outbox }, 'mail written to the outbox');
  };

  return {
    send,
    dispatch(message) {
      send(message).catch((err: unknown) =>
        log.error({ err, to: message.to, subject: message.subject }, 'mail failed'),
      );
    },
  };
}

/**
 * Says once, when the app starts, that mail is not delivered: without SMTP_URL every message (verification,
 * password reset, receipts) goes to the outbox file, and in production its links are not logged either.
 */
function announceOutbox(ctx: Pick<AppDeps, 'config'>, log: AppDeps['logger'], outbox: string): void {
  if (ctx.config.NODE_ENV === 'production') {
    log.warn(
      { outbox },
      'SMTP_URL is unset: emails are not sent, only appended to the outbox file; set SMTP_URL to deliver them',
    );
  } else {
    log.info({ outbox }, 'SMTP_URL is unset: emails are appended to the outbox file and their links logged');
  }
}

/** Escapes text for the HTML part of a message. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}
