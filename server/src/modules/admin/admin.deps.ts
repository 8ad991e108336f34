import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import type { ApiKeysDeps } from '../api-keys';
import type { EmailVerificationDeps } from '../email-verification';
import type { JobsDeps } from '../jobs';

/**
 * The part of the app the operator console's services use (its routers take the whole context), with what the
 * modules it calls need: jobs (cancel), api-keys (list, revoke), email-verification (resend) and payments (receipts).
 */
export type AdminDeps = Pick<AppContext, 'config' | 'db' | 'logger' | 'queue' | 'queueRedis'> & {
  services: Pick<AppServices, 'passwords' | 'payments' | 'rateLimits'>;
} & JobsDeps &
  ApiKeysDeps &
  EmailVerificationDeps;
