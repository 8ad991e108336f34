/** What other modules may use of api-keys; everything else in this folder is internal. */
export { apiKeyAuth, presentedKey, unlessApiKey } from './api-key-auth';
export { apiKeysRouter } from './api-keys.routes';
export { authenticateKey, listKeys, revokeKey } from './api-keys.service';
export { listActive as activeKeys } from './api-keys.repository';
export { webhookSecretFor } from './webhook-secret.service';
export type { ApiKeysDeps } from './api-keys.deps';
