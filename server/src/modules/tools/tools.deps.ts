import type { AppContext } from '../../context';
import type { JobWebhooksDeps } from '../job-webhooks';
import type { AppServices } from '../../services';

/** The part of the app the tools services use (routes pass the whole context), with what the modules it calls need. */
export type ToolsDeps = Pick<AppContext, 'config' | 'storage'> & {
  services: Pick<AppServices, 'rateLimits'>;
} & JobWebhooksDeps;
