import type { AppContext } from '../../context';
import type { JobsDeps } from '../jobs';
import type { AppServices } from '../../services';

/** The part of the app the batches services use (routes pass the whole context), with what the modules it calls need. */
export type BatchesDeps = Pick<AppContext, 'db' | 'logger' | 'storage'> & {
  services: Pick<AppServices, 'jobUpdates'>;
} & JobsDeps;
