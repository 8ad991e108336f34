import { z } from 'zod';
import { apiKeyCreateSchema, apiKeySchema, createdApiKeySchema, webhookSecretSchema } from '../api-keys';
import { defineRoutes } from './route';

/** Managing API keys and the webhook signing secret: browser sessions only. */
export const apiKeyRoutes = defineRoutes('apiKeys', {
  list: {
    tag: 'API keys',
    summary: "The caller's active API keys",
    auth: 'session',
    reply: { kind: 'json', payload: z.array(apiKeySchema) },
  },
  create: {
    tag: 'API keys',
    summary: 'Create an API key (the key is returned only here)',
    auth: 'session',
    body: apiKeyCreateSchema,
    reply: { kind: 'json', status: 201, payload: createdApiKeySchema },
  },
  revoke: {
    tag: 'API keys',
    summary: 'Revoke an API key',
    auth: 'session',
    reply: { kind: 'json' },
  },
  webhookSecret: {
    tag: 'API keys',
    summary: 'The secret that signs job webhooks',
    auth: 'session',
    reply: { kind: 'json', payload: webhookSecretSchema },
  },
  rotateWebhookSecret: {
    tag: 'API keys',
    summary: 'Replaces the webhook secret; webhooks sent from now on are signed with the new one',
    auth: 'session',
    reply: { kind: 'json', payload: webhookSecretSchema },
  },
});
