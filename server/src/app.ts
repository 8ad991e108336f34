import express, { type Express, type RequestHandler } from 'express';
import { LIMITS } from '@imagestudio/contracts';
import { fromRoot } from './config';
import type { AppContext, AppDeps } from './context';
import { bodyDeadline } from './http/body-deadline';
import { compressJson } from './http/compress-json';
import { csrfMiddleware } from './http/csrf';
import { apiNotFound, errorHandler } from './http/error-handler';
import { createMetrics } from './http/metrics';
import { requestLogger } from './http/request-logger';
import { securityHeaders } from './http/security-headers';
import { onSessionPaths, sessionMiddleware } from './http/session';
import { spaRouter } from './http/spa';
import { apiKeyAuth, unlessApiKey } from './modules/api-keys';
import { apiRouters, publicRouters, rawBodyRouters } from './modules';
import { queueBoardRouter } from './modules/admin';
import { removeBgRouter } from './modules/removebg-compat';
import { createServices } from './services';

/** Parses TRUST_PROXY: "true"/"false", a hop count, or a list of addresses for express. */
function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Builds the Express app without listening; main.ts and tests call listen. */
export function createApp(deps: AppDeps): Express {
  // Services first, from the connections; then the context every router receives.
  const metrics = createMetrics();
  const ctx: AppContext = { ...deps, metrics, services: createServices(deps, metrics) };
  const app = express();
  app.disable('x-powered-by');
  // No generated ETags: /api replies are per-user and change with every job or payment, so hashing each body
  // bought nothing; the catalogue sends ETags of its own (computed once per version) and static files have theirs.
  app.set('etag', false);
  app.set('trust proxy', trustProxy(deps.config.TRUST_PROXY));
  app.locals.ctx = ctx;

  // 1. Request id + access log, then HTTP metrics: first, so every later step is logged and counted.
  app.use(requestLogger(deps.logger));
  app.use(ctx.metrics.middleware);

  // 2. Security headers: the document policy for the client's pages, a minimal one for /api replies.
  app.use(securityHeaders(deps.config, deps.storage.publicEndpoint));

  // JSON replies over 1 KB are compressed (static files are served from their precompressed copies).
  app.use('/api', compressJson());

  // 3. Routes that must see the raw body (Stripe webhook), before any body parser touches it.
  for (const router of rawBodyRouters(ctx)) app.use('/api', router);

  // 3b. The remove.bg-compatible API (/v1.0): its own key check, body readers (base64 images need larger JSON
  // bodies than /api takes) and error shape; outside /api, so no envelope, session or XSRF.
  app.use('/v1.0', removeBgRouter(ctx));

  // 4. Body parsers with a size limit; oversized bodies become a 413 envelope in the error handler, and a body
  // that has not arrived whole within HTTP_BODY_TIMEOUT_MS a 408.
  app.use(bodyDeadline(ctx.config.HTTP_BODY_TIMEOUT_MS));
  app.use(express.json({ limit: LIMITS.jsonBodyMaxBytes }));
  app.use(express.urlencoded({ extended: false, limit: LIMITS.jsonBodyMaxBytes }));

  // 5. Public read-only routes (probes, catalog): no session, so anonymous reads stay cheap.
  for (const router of publicRouters(ctx)) app.use('/api', router);

  // 6. API keys (Bearer / X-Api-Key): such requests skip 7. and 8.
  app.use('/api', apiKeyAuth(ctx));

  // 7. Sessions (Redis) and passport, then 8. session-bound CSRF checks on mutating requests; only on /api and the
  // queue board, and not for API-key requests.
  const withSession = (handler: RequestHandler) => onSessionPaths(unlessApiKey(handler));
  for (const handler of sessionMiddleware(ctx)) app.use(withSession(handler));
  const passport = ctx.services.passport;
  // compat: false skips the per-request `req._passport` object kept only for strategies written for passport 0.4.
  app.use(withSession(passport.initialize({ compat: false })), withSession(passport.session()));
  for (const handler of csrfMiddleware(ctx)) app.use(withSession(handler));

  // 9. Feature routers under /api, then the /api 404 envelope.
  for (const router of apiRouters(ctx)) app.use('/api', router);
  app.use('/api', apiNotFound);
  // 9b. The BullMQ board for operators (/admin/queues), behind the same guard as /api/admin.
  app.use(queueBoardRouter(ctx));

  // 10. The built client for every other path (the client renders its own Not Found page).
  app.use(
    spaRouter(fromRoot(deps.config, deps.config.CLIENT_DIST_DIR), { sourceMapsPublic: deps.config.SOURCE_MAPS_PUBLIC }),
  );

  // 11. The one error handler: envelopes for every failure.
  app.use(errorHandler);
  return app;
}
