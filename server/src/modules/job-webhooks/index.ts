/** What other modules may use of job-webhooks; everything else in this folder is internal. */
export { CallbackUrlError, checkCallbackUrl, resolvePublic } from './callback-url';
export { checkedLookup } from './post-webhook';
export { jobWebhooksTask, registerCallback } from './job-webhooks.service';
export type { JobWebhooksDeps } from './job-webhooks.deps';
