import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the api-keys services use (routes pass the whole context; tests may pass less). */
export type ApiKeysDeps = Pick<AppContext, 'config' | 'db'> & { services: Pick<AppServices, 'rateLimits'> };
