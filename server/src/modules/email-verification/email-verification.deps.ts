import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the email-verification services use (routes pass the whole context; tests may pass less). */
export type EmailVerificationDeps = Pick<AppContext, 'config' | 'db'> & {
  services: Pick<AppServices, 'catalog' | 'mailer'>;
};
