import Stripe from 'stripe';
import type { Config } from '../../config';

/**
 * The one place the server talks to Stripe. The API version is pinned so a Stripe dashboard change
 * never alters payload shapes under us; requests time out after 5 s and are retried twice, always with
 * the caller's idempotency key, so a retry after a lost reply never creates a second Checkout Session.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;
export const STRIPE_TIMEOUT_MS = 5000;
export const STRIPE_NETWORK_RETRIES = 2;

export interface StripeClientOptions {
  /** Tests shorten the timeout to exercise retries without waiting 15 s. */
  timeoutMs?: number;
}

/** Builds the SDK client, or null when no secret key is configured (the built-in test checkout is used). */
export function createStripeClient(config: Config, options: StripeClientOptions = {}): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    apiVersion: STRIPE_API_VERSION,
    timeout: options.timeoutMs ?? STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    telemetry: false,
    ...(base && {
      host: base.hostname,
      port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
      protocol: base.protocol === 'http:' ? 'http' : 'https',
    }),
  });
}

export type { Stripe };
