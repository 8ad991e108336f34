import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the auth services use (routes pass the whole context; tests may pass less). */
export type AuthDeps = Pick<AppContext, 'config' | 'db'> & {
  services: Pick<AppServices, 'catalog' | 'mailer' | 'passwords'>;
};
