import { Router } from 'express';
import type { AppContext } from '../context';
import { adminRouter } from './admin/admin.routes';
import { apiKeysRouter } from './api-keys/api-keys.routes';
import type { BackgroundTask } from '../lib/background-task';
import { authRouter } from './auth/auth.routes';
import { batchesRouter } from './batches/batches.routes';
import { catalogRouter } from './catalog/catalog.routes';
import { localizeMessagesRouter } from './catalog/localize-messages';
import { pricingRouter } from './catalog/pricing.routes';
import { healthRouter } from './health/health.routes';
import { jobWebhooksTask } from './job-webhooks/job-webhooks.service';
import { jobEventsTask } from './jobs/job-events';
import { jobsRouter } from './jobs/jobs.routes';
import { openApiRouter } from './openapi/openapi.routes';
import { reconcilerTask } from './jobs/reconciler';
import { retentionTask } from './jobs/retention';
import { toolsRouter } from './tools/tools.routes';
import { usersRouter } from './users/users.routes';
import { passwordResetRouter } from './password-reset/password-reset.routes';
import { emailVerificationRouter } from './email-verification/email-verification.routes';
import { emailChangeRouter } from './email-change/email-change.routes';
import { depositsRouter } from './payments/deposits.routes';
import { paymentHistoryRouter } from './payments/history.routes';
import { paymentsReconcilerTask } from './payments/reconciler';
import { testCheckoutRouter } from './payments/test-checkout.routes';
import { stripeWebhookRouter } from './payments/webhooks.routes';
import { tokenActivityRouter } from './token-activity/token-activity.routes';

/**
 * Routes that need the raw request body (the Stripe webhook signature is computed over the exact bytes),
 * mounted before the JSON parser. Each returns a router mounted under /api.
 */
export function rawBodyRouters(ctx: AppContext): Router[] {
  return [stripeWebhookRouter(ctx), testCheckoutRouter(ctx)];
}

/**
 * Read-only public routes mounted before the session: probes and the catalog (settings, languages,
 * strings, currencies, countries, pages, packs, prices). They need no session, and serving them without
 * one keeps anonymous traffic from creating a Redis session per request; the XSRF cookie is set by the
 * session-aware GETs the client makes first (/api/is-auth). The message translator is first so every
 * later /api reply, here or in apiRouters, is localised.
 */
export function publicRouters(ctx: AppContext): Router[] {
  return [localizeMessagesRouter(ctx), healthRouter(ctx), catalogRouter(ctx), pricingRouter(ctx), openApiRouter(ctx)];
}

/** Every feature router, mounted under /api after the session and CSRF middleware. */
export function apiRouters(ctx: AppContext): Router[] {
  return [
    authRouter(ctx),
    usersRouter(ctx),
    passwordResetRouter(ctx),
    emailVerificationRouter(ctx),
    emailChangeRouter(ctx),
    depositsRouter(ctx),
    paymentHistoryRouter(ctx),
    toolsRouter(ctx),
    jobsRouter(ctx),
    batchesRouter(ctx),
    tokenActivityRouter(ctx),
    apiKeysRouter(ctx),
    adminRouter(ctx),
  ];
}

/** Periodic tasks started by main.ts (not by createApp, so tests control them). */
export function backgroundTasks(ctx: AppContext): BackgroundTask[] {
  return [
    jobEventsTask(ctx),
    reconcilerTask(ctx),
    retentionTask(ctx),
    paymentsReconcilerTask(ctx),
    jobWebhooksTask(ctx),
  ];
}
