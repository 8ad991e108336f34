import type { AppContext } from '../../context';
import { type CatalogDeps, namespaceTexts } from '../catalog';
import { escapeHtml, type MailMessage } from '../mail';
import { verificationUrl } from './verification-links';

/** The "verify your email" message with its signed link, in the customer's language (`lang`). */
export async function verificationMail(
  ctx: Pick<AppContext, 'config'> & CatalogDeps,
  user: { id: string; email: string; name: string; lang: string | null },
): Promise<MailMessage> {
  const text = await namespaceTexts(ctx, user.lang ?? undefined, 'mail');
  const url = verificationUrl(ctx.config, user.id, user.email);
  const greeting = user.name ? text('greeting', { name: user.name }) : text('greetingPlain');
  return {
    to: user.email,
    subject: text('verify.subject'),
    text: `${greeting}\n\n${text('verify.text')}\n${url}\n\n${text('verify.ignore')}\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(text('verify.html'))}</p><p><a href="${escapeHtml(url)}">${escapeHtml(text('verify.button'))}</a></p><p>${escapeHtml(text('verify.ignore'))}</p>`,
    links: { verify: url },
  };
}
