import type { AppContext } from '../../context';
import type { ApiKeysDeps } from '../api-keys';
import type { JobsDeps } from '../jobs';

/** The part of the app the job-webhooks services use (routes pass the whole context), with what the modules it calls need. */
export type JobWebhooksDeps = Pick<AppContext, 'config' | 'db' | 'logger'> & JobsDeps & ApiKeysDeps;
