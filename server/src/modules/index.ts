import { Router } from 'express';
import type { AppContext } from '../context';
import { healthRouter } from './health/health.routes';

/**
 * Routes that need the raw request body (the Stripe webhook signature is computed over the exact bytes),
 * mounted before the JSON parser. Each returns a router mounted under /api.
 */
export function rawBodyRouters(_ctx: AppContext): Router[] {
  return [];
}

/** Every feature router, mounted under /api after the session and CSRF middleware. */
export function apiRouters(ctx: AppContext): Router[] {
  return [healthRouter(ctx)];
}

/** A periodic job of the API process (reconcilers, retention); `start` returns its stop function. */
export interface BackgroundTask {
  name: string;
  start(): () => Promise<void>;
}

/** Periodic tasks started by main.ts (not by createApp, so tests control them). */
export function backgroundTasks(_ctx: AppContext): BackgroundTask[] {
  return [];
}
