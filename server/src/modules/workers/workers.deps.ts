import type { AppContext } from '../../context';
import type { AppServices } from '../../services';

/** The part of the app the workers services use (routes pass the whole context; tests may pass less). */
export type WorkersDeps = Pick<AppContext, 'config' | 'queueRedis'> & { services: Pick<AppServices, 'heartbeats'> };
