import type { routes } from '@imagestudio/contracts';
import type { EveryRouteMounted } from '../http/route-table';
import type { AppContext } from '../context';
import { adminRouter } from './admin';
import { apiKeysRouter } from './api-keys';
import type { BackgroundTask } from '../lib/background-task';
import { authRouter } from './auth';
import { batchesRouter } from './batches';
import { catalogRouter, localizeMessagesRouter, pricingRouter } from './catalog';
import { healthRouter } from './health';
import { jobWebhooksTask } from './job-webhooks';
import { jobEventsTask, jobsRouter, reconcilerTask, retentionTask } from './jobs';
import { openApiRouter } from './openapi';
import { toolsRouter } from './tools';
import { usersRouter } from './users';
import { passwordResetRouter } from './password-reset';
import { emailVerificationRouter } from './email-verification';
import {
  depositsRouter,
  paymentHistoryRouter,
  paymentsReconcilerTask,
  testCheckoutRouter,
  stripeWebhookRouter,
} from './payments';
import { tokenActivityRouter } from './token-activity';
import { emailChangeRouter } from './email-change';

/**
 * Routes that need the raw request body (the Stripe webhook signature is computed over the exact bytes),
 * mounted before the JSON parser. Each returns a router mounted under /api.
 */
export function rawBodyRouters(ctx: AppContext) {
  return [stripeWebhookRouter(ctx), testCheckoutRouter(ctx)] as const;
}

/**
 * Read-only public routes mounted before the session: probes and the catalog (settings, languages,
 * strings, currencies, countries, pages, packs, prices). They need no session, and serving them without
 * one keeps anonymous traffic from creating a Redis session per request; the XSRF cookie is set by the
 * session-aware GETs the client makes first (/api/is-auth). The message translator is first so every
 * later /api reply, here or in apiRouters, is localised.
 */
export function publicRouters(ctx: AppContext) {
  return [
    localizeMessagesRouter(ctx),
    healthRouter(ctx),
    catalogRouter(ctx),
    pricingRouter(ctx),
    openApiRouter(ctx),
  ] as const;
}

/** Every feature router, mounted under /api after the session and CSRF middleware. */
export function apiRouters(ctx: AppContext) {
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
  ] as const;
}

type Routers = ReturnType<typeof rawBodyRouters | typeof publicRouters | typeof apiRouters>[number];

/**
 * Every entry of the route table has a handler in one of the routers above: a name printed here is an entry no
 * router mounts (give its module's handler map an entry for it).
 */
const everyRouteMounted: EveryRouteMounted<typeof routes, Routers> = true;
void everyRouteMounted;

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
