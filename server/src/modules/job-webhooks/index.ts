/** What other modules may use of job-webhooks; everything else in this folder is internal. */
export { checkCallbackUrl } from './callback-url';
export { jobWebhooksTask, registerCallback } from './job-webhooks.service';
export type { JobWebhooksDeps } from './job-webhooks.deps';
