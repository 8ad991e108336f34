import type { AppContext } from '../../context';
import type { CatalogDeps } from '../catalog';

/** The part of the app the token-activity services use (routes pass the whole context; tests may pass less). */
export type TokenActivityDeps = Pick<AppContext, 'db'> & CatalogDeps;
