import { localeFor } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import { activeKeys } from '../api-keys';
import { namespaceTexts } from '../catalog';
import { escapeHtml, type MailMessage } from '../mail';
import type { PasswordChangeOrigin } from '../users';

/** The account the notice goes to. */
interface NoticeUser {
  id: string;
  email: string;
  name: string;
  lang: string | null;
}

/** What the notice needs of the app. */
type PasswordNoticeDeps = Pick<AppContext, 'db' | 'config' | 'logger'> & {
  services: Pick<AppServices, 'mailer' | 'catalog'>;
};

/** Tells a customer that their password changed (the users module calls it without importing this module). */
export type PasswordChangeNotice = (user: NoticeUser, origin: PasswordChangeOrigin) => void;

/** The time of the change in the customer's language, with its time zone spelled out (UTC). */
function when(at: Date, lang: string | null): string {
  return new Intl.DateTimeFormat(localeFor(lang ?? 'en'), {
    dateStyle: 'long',
    // The long time style names the zone ("12:10:00 UTC").
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(at);
}

/**
 * The notice, in the customer's language: when the password changed and from which address and browser, a link
 * to reset it if it was not them, and, when they have working API keys, that the keys still work and where to
 * revoke one.
 */
async function passwordChangedMail(
  ctx: PasswordNoticeDeps,
  user: NoticeUser,
  origin: PasswordChangeOrigin,
  keyCount: number,
): Promise<MailMessage> {
  const text = await namespaceTexts(ctx, user.lang ?? undefined, 'mail');
  const unknown = text('passwordChanged.unknown');
  const greeting = user.name ? text('greeting', { name: user.name }) : text('greetingPlain');
  const changed = text('passwordChanged.text', { time: when(origin.at, user.lang) });
  const from = text('passwordChanged.origin', { ip: origin.ip || unknown, agent: origin.userAgent || unknown });
  const notYou = text('passwordChanged.notYou');
  const reset = `${ctx.config.APP_URL}/forgot-password`;
  const keysUrl = `${ctx.config.APP_URL}/account/api-keys`;
  const keys = keyCount > 0 ? text('passwordChanged.keys') : null;
  const p = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const a = (url: string, label: string) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;
  return {
    to: user.email,
    subject: text('passwordChanged.subject'),
    text: [greeting, '', changed, from, '', notYou, reset, ...(keys ? ['', keys, keysUrl] : [])].join('\n') + '\n',
    html: [
      p(greeting),
      p(changed),
      p(from),
      p(notYou),
      a(reset, text('passwordChanged.button')),
      ...(keys ? [p(keys), a(keysUrl, text('passwordChanged.keysButton'))] : []),
    ].join(''),
    links: { reset, ...(keys ? { apiKeys: keysUrl } : {}) },
  };
}

/**
 * After every password change or reset: mails the notice in the background (a failure is logged and the change
 * stands).
 */
export function tellPasswordChanged(ctx: PasswordNoticeDeps, user: NoticeUser, origin: PasswordChangeOrigin): void {
  activeKeys(ctx.db, user.id)
    .then(async (keys) => ctx.services.mailer.send(await passwordChangedMail(ctx, user, origin, keys.length)))
    .catch((err: unknown) => ctx.logger.error({ err, userId: user.id }, 'password change notice failed'));
}

export function createPasswordChangeNotice(deps: PasswordNoticeDeps): PasswordChangeNotice {
  return (user, origin) => tellPasswordChanged(deps, user, origin);
}
