import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import { escapeHtml, type MailMessage } from '../mail';
import * as repo from './api-keys.repository';

/** The message that tells a user whose password changed that their API keys were not touched. */
export function keysStillWorkMail(appUrl: string, email: string, keyCount: number): MailMessage {
  const url = `${appUrl}/account/api-keys`;
  const keys = keyCount === 1 ? 'API key still works' : `${keyCount} API keys still work`;
  return {
    to: email,
    subject: 'Your password was changed; your API keys still work',
    text: `The password of your Image Studio account was just changed. Your ${keys}: a password change does not revoke them. If you did not change your password, or a key may have been seen by someone else, revoke it here:\n${url}\n`,
    html: `<p>The password of your Image Studio account was just changed. Your ${keys}: a password change does not revoke them.</p><p>If you did not change your password, or a key may have been seen by someone else, <a href="${escapeHtml(url)}">revoke it in your account</a>.</p>`,
    links: { apiKeys: url },
  };
}

/** What the notice needs of the app. */
export type KeysNoticeDeps = Pick<AppContext, 'db' | 'config' | 'logger'> & { services: Pick<AppServices, 'mailer'> };

/** tellKeysStillWork bound to one app: the users module calls it after a password change without importing this module. */
export type PasswordChangeNotice = (user: { id: string; email: string }) => void;

export function createPasswordChangeNotice(deps: KeysNoticeDeps): PasswordChangeNotice {
  return (user) => tellKeysStillWork(deps, user);
}

/**
 * After a password change or reset: when the user has working API keys, mails them that the keys still work,
 * with a link to revoke them (in the background; a failure is logged and the change stands).
 */
export function tellKeysStillWork(ctx: KeysNoticeDeps, user: { id: string; email: string }): void {
  repo
    .listActive(ctx.db, user.id)
    .then((keys) => {
      if (keys.length > 0) ctx.services.mailer.dispatch(keysStillWorkMail(ctx.config.APP_URL, user.email, keys.length));
    })
    .catch((err: unknown) =>
      ctx.logger.error({ err, userId: user.id }, 'api keys notice after a password change failed'),
    );
}
