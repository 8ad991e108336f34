import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the password-reset services use (routes pass the whole context; tests may pass less). */
export type PasswordResetDeps = Pick<AppContext, 'config' | 'db' | 'logger'> & {
  services: Pick<AppServices, 'catalog' | 'mailer' | 'passwords'>;
};
