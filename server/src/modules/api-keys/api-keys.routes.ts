import { Router } from 'express';
import { API_KEY_MESSAGES, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { createKey, listKeys, revokeKey } from './api-keys.service';
import { rotateWebhookSecret, webhookSecretFor } from './webhook-secret.service';

/**
 * Managing API keys and the webhook signing secret: browser sessions only (`session` in the route table, so an
 * API key gets 403, and the changes need the XSRF header like every change).
 */
export function apiKeysRouter(ctx: AppContext) {
  const router = Router();
  const r = routes.apiKeys;

  return mountRoutes(router, r, {
    list: ({ req }) => listKeys(ctx, currentUser(req).id),

    create: async ({ req, body }) =>
      okWith(await createKey(ctx, currentUser(req).id, body), { message: API_KEY_MESSAGES.created }),

    revoke: async ({ req, params }) => {
      await revokeKey(ctx, currentUser(req).id, params.id);
      return okWith(undefined, { message: API_KEY_MESSAGES.revoked });
    },

    webhookSecret: async ({ req, res }) => {
      res.set('Cache-Control', 'private, no-store');
      return { secret: await webhookSecretFor(ctx, currentUser(req).id) };
    },

    rotateWebhookSecret: async ({ req, res }) => {
      res.set('Cache-Control', 'private, no-store');
      return { secret: await rotateWebhookSecret(ctx, currentUser(req).id) };
    },
  });
}
