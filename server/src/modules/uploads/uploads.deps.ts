import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the uploads services use (routes pass the whole context; tests may pass less). */
export type UploadsDeps = Pick<AppContext, 'metrics'> & { services: Pick<AppServices, 'uploadBudget'> };
