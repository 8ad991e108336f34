import type { EventEmitter } from 'node:events';
import type { AppContext } from './context';
import { createRateLimits, type RateLimits } from './http/rate-limits';
import { createPassport, type AppPassport } from './modules/auth/auth.passport';
import { createPasswordHasher, type PasswordHasher } from './modules/auth/password-hash';
import { createCatalogCache, type CatalogCache } from './modules/catalog/catalog.cache';
import { createRecentRunsCache, type RecentRunsCache } from './modules/jobs/job-estimate';
import { createJobMetrics, type JobMetrics } from './modules/jobs/job-metrics';
import { createJobUpdates } from './modules/jobs/job-updates';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { createPayments, type Payments } from './modules/payments/payments.context';
import { createHeartbeatCache, type HeartbeatCache } from './modules/tools/tools.status';
import { createUploadBudget, type UploadBudget } from './modules/uploads/upload-budget';
import { createSessionUserCache, type SessionUserCache } from './modules/users/session-user-cache';

/**
 * The long-lived objects of one app, built once by createApp in this one place (tests build several apps
 * side by side, so nothing here may be a module-level singleton). Modules reach them as `ctx.services`.
 */
export interface AppServices {
  /** Catalog data and serialised replies, invalidated by the catalog version in the database. */
  catalog: CatalogCache;
  /** argon2id hashing with a precomputed dummy hash for unknown accounts. */
  passwords: PasswordHasher;
  /** This app's Passport (not the global singleton) with the local strategy and session (de)serialisers. */
  passport: AppPassport;
  /** SMTP (pooled) or the outbox file. */
  mailer: Mailer;
  /** Redis rate limits: login, registration, emails, and those set in the configuration (API keys, submissions). */
  rateLimits: RateLimits;
  /** Job counters and gauges on the app's Prometheus registry. */
  jobMetrics: JobMetrics;
  /** In-process notices that a job's row changed (open event streams push at once). */
  jobUpdates: EventEmitter;
  /** Recent successful runs per tool, for time-left estimates. */
  recentRuns: RecentRunsCache;
  /** The last non-empty read of the workers' heartbeats. */
  heartbeats: HeartbeatCache;
  /** The Stripe client (null: the built-in test checkout) and the payments logger. */
  payments: Payments;
  /** Session users kept in memory, dropped on Postgres `user_changed` notices; holds one LISTEN connection. */
  sessionUsers: SessionUserCache;
  /** Uploads on disk (UPLOAD_DISK_MB, reserved as bytes arrive), per-user slots, minimum body rate. */
  uploadBudget: UploadBudget;
}

/** Builds every service of the app; `ctx` is complete except for `services` itself. */
export function createServices(ctx: AppContext): AppServices {
  return {
    catalog: createCatalogCache(ctx.db, ctx.config),
    passwords: createPasswordHasher(ctx.config),
    passport: createPassport(ctx),
    mailer: createMailer(ctx),
    rateLimits: createRateLimits(ctx),
    jobMetrics: createJobMetrics(ctx),
    jobUpdates: createJobUpdates(),
    recentRuns: createRecentRunsCache(),
    heartbeats: createHeartbeatCache(),
    payments: createPayments(ctx),
    sessionUsers: createSessionUserCache({ db: ctx.db, databaseUrl: ctx.config.DATABASE_URL, logger: ctx.logger }),
    uploadBudget: createUploadBudget(ctx),
  };
}

/** Closes what the services hold open (the LISTEN connection); before closeDeps closes the pool. */
export async function closeServices(services: AppServices): Promise<void> {
  await services.sessionUsers.close();
}
