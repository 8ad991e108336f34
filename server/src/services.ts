import type { EventEmitter } from 'node:events';
import type { AppDeps } from './context';
import type { Metrics } from './http/metrics';
import { createPasswordChangeNotice, type PasswordChangeNotice } from './modules/password-reset';
import { createRateLimits, type RateLimits } from './http/rate-limits';
import { createPassport, type AppPassport, createPasswordHasher, type PasswordHasher } from './modules/auth';
import { createCatalogCache, type CatalogCache } from './modules/catalog';
import {
  createRecentRunsCache,
  type RecentRunsCache,
  createJobMetrics,
  type JobMetrics,
  createJobUpdates,
} from './modules/jobs';
import { createMailer, type Mailer } from './modules/mail';
import { createPayments, type Payments } from './modules/payments';
import { createHeartbeatCache, type HeartbeatCache } from './modules/workers';
import { createUploadBudget, type UploadBudget } from './modules/uploads';
import { createSessionUserCache, type SessionUserCache } from './modules/users';

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
  /** Tells a user whose password changed that their API keys still work (the api-keys module's mail). */
  passwordChangeNotice: PasswordChangeNotice;
  /** Uploads on disk (UPLOAD_DISK_MB, reserved as bytes arrive), per-user slots, minimum body rate. */
  uploadBudget: UploadBudget;
}

/**
 * Builds every service of the app from the connections (before the context exists: each service gets only
 * the part it uses, services it depends on included).
 */
export function createServices(deps: AppDeps, metrics: Metrics): AppServices {
  const { config, logger, db, redis, queue } = deps;
  const catalog = createCatalogCache(db, config);
  const passwords = createPasswordHasher(config);
  const mailer = createMailer({ config, logger });
  const sessionUsers = createSessionUserCache({ db, databaseUrl: config.DATABASE_URL, logger });
  return {
    catalog,
    passwords,
    passport: createPassport({ db, services: { passwords, sessionUsers } }),
    mailer,
    rateLimits: createRateLimits({ config, redis }),
    jobMetrics: createJobMetrics({ db, queue, metrics }),
    jobUpdates: createJobUpdates(),
    recentRuns: createRecentRunsCache(),
    heartbeats: createHeartbeatCache(),
    payments: createPayments({ config, db, redis, logger, services: { catalog, mailer } }),
    sessionUsers,
    passwordChangeNotice: createPasswordChangeNotice({ db, config, logger, services: { mailer, catalog } }),
    uploadBudget: createUploadBudget({ config, logger, metrics }),
  };
}

/** Closes what the services hold open (the LISTEN connection); before closeDeps closes the pool. */
export async function closeServices(services: AppServices): Promise<void> {
  await services.sessionUsers.close();
}
