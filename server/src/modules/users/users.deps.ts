import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the users services use (routes pass the whole context; tests may pass less). */
export type UsersDeps = Pick<AppContext, 'db'> & {
  services: Pick<AppServices, 'catalog' | 'passwordChangeNotice' | 'passwords'>;
};
