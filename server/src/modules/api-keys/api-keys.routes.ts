import { Router } from 'express';
import { API_KEY_MESSAGES, apiKeyCreateSchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { sendOk } from '../../http/envelope';
import { createKey, listKeys, revokeKey } from './api-keys.service';
import { rotateWebhookSecret, webhookSecretFor } from './webhook-secret.service';

/**
 * Managing API keys and the webhook signing secret: browser sessions only (the API-key middleware
 * answers 403 to a key on these paths, and the session routes need the XSRF header like every change).
 */
export function apiKeysRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(['/user/api-keys', '/user/webhook-secret'], requireUser);

  router.get('/user/api-keys', async (req, res) => {
    sendOk(res, await listKeys(ctx, currentUser(req).id));
  });

  router.post('/user/api-keys', async (req, res) => {
    const input = apiKeyCreateSchema.parse(req.body);
    sendOk(res, await createKey(ctx, currentUser(req).id, input), { message: API_KEY_MESSAGES.created }, 201);
  });

  router.delete('/user/api-keys/:id', async (req, res) => {
    await revokeKey(ctx, currentUser(req).id, req.params.id);
    sendOk(res, undefined, { message: API_KEY_MESSAGES.revoked });
  });

  router.get('/user/webhook-secret', async (req, res) => {
    res.set('Cache-Control', 'private, no-store');
    sendOk(res, { secret: await webhookSecretFor(ctx, currentUser(req).id) });
  });

  router.post('/user/webhook-secret/rotate', async (req, res) => {
    res.set('Cache-Control', 'private, no-store');
    sendOk(res, { secret: await rotateWebhookSecret(ctx, currentUser(req).id) });
  });

  return router;
}
