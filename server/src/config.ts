import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  envBool,
  envToolList,
  parseEnv,
  processEnv,
  projectRoot,
  queueEnv,
  s3Env,
} from '@imagestudio/runtime';

/**
 * The API process's configuration: every environment variable it reads, validated once at boot.
 * Nothing else in the server reads process.env.
 */

/** Signs development session cookies only: production must set its own secret. */
const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';

const envSchema = z.object({
  ...processEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Seconds a stopping API (SIGTERM, SIGINT) gives requests in flight (an upload on a slow line, a download) to
   * finish after it stops taking connections; event streams end at once and browsers reconnect elsewhere.
   */
  API_SHUTDOWN_GRACE_S: z.coerce.number().int().min(1).max(600).default(20),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().default('false'),

  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/imagestudio'),
  ...queueEnv,
  /**
   * Tools whose workers an autoscaler starts when jobs wait (KEDA scaling from zero): with no live worker they are
   * still offered and their jobs queue until a worker is up, instead of a 503. Unset = only what live workers run.
   */
  WORKERS_ON_DEMAND: envToolList.optional(),

  SESSION_SECRET: z.string().min(16).default(DEV_SESSION_SECRET),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
  /** Lifetime of a "remember me" session cookie, renewed with each expiry refresh (SESSION_REFRESH_INTERVAL_S). */
  SESSION_REMEMBER_DAYS: z.coerce.number().positive().default(30),
  /**
   * Seconds between refreshes of a signed-in session's expiry in Redis (and a remembered cookie's). Refreshing on every request costs a Redis
   * write per call; once a minute keeps the idle timeout exact to the minute at a fraction of the cost.
   */
  SESSION_REFRESH_INTERVAL_S: z.coerce.number().int().min(0).default(60),
  /** Redis key prefix of the rate limiters; unset in tests means a fresh one per app (like QUEUE_PREFIX). */
  RATE_LIMIT_PREFIX: z.string().min(1).optional(),
  /** argon2id cost; the defaults are OWASP's minimum (19 MiB, 2 passes, 1 lane). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8192).default(19456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),

  S3_ENDPOINT: z.string().url().optional(),
  /**
   * The S3 address browsers reach, used for every presigned URL the API hands out (results, inputs, previews);
   * unset = S3_ENDPOINT. Needed when the API reaches S3 by an internal name (http://minio:9000 in compose).
   */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  ...s3Env,
  /** Folder of the embedded S3 server used when S3_ENDPOINT is unset. */
  S3_LOCAL_DIR: z.string().default('data/s3'),
  /** Port of the embedded S3 server; 0 picks a free one. */
  S3_LOCAL_PORT: z.coerce.number().int().min(0).max(65535).default(4568),

  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.string().url().optional(),

  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Image Studio <no-reply@imagestudio.local>'),
  MAIL_OUTBOX_FILE: z.string().default('data/mail-outbox.jsonl'),

  RESULT_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  /** Image-job submissions per user per minute (429 beyond). */
  JOB_SUBMIT_RATE_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Free re-compositions of stored cut-outs (POST /api/jobs/{id}/compose) per user per minute (429 beyond). */
  COMPOSE_RATE_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /**
   * Re-compositions and editor previews rendered at once per API process (the others wait in order): each holds a
   * thread of libuv's pool (four by default), which upload checks and file reads need too.
   */
  COMPOSE_CONCURRENCY: z.coerce.number().int().positive().default(2),
  /** Re-compositions that may wait for a render slot per API process; beyond, 503 with Retry-After: 5. */
  COMPOSE_QUEUE_MAX: z.coerce.number().int().nonnegative().default(8),
  /** Megapixels of canvas one customer may re-compose per hour (AVIF counts four times); beyond, 429. */
  COMPOSE_MEGAPIXELS_PER_HOUR: z.coerce.number().int().positive().default(400),
  /** Megabytes of re-composed pictures one customer may keep stored at once; beyond, 429 until some are deleted. */
  COMPOSE_STORAGE_MB_PER_USER: z.coerce.number().int().positive().default(2048),
  /** Requests per API key per minute, counted in Redis (429 beyond); tool calls also count per user. */
  API_KEY_RATE_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /** Requests with an unknown, revoked or expired API key per address per minute (429 beyond). */
  API_KEY_FAILURES_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Guest sessions GET /api/csrf may start per address in 10 minutes (429 beyond); each lives an hour. */
  CSRF_SESSIONS_PER_IP_PER_10_MIN: z.coerce.number().int().positive().default(120),
  /** Job webhooks: timeout per try, first retry delay (doubling, at most an hour), how long to keep trying. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  WEBHOOK_FIRST_RETRY_S: z.coerce.number().positive().default(30),
  WEBHOOK_RETRY_HOURS: z.coerce.number().positive().default(24),
  /** How often the API looks for webhooks to send (ended jobs, due retries). */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
  /**
   * Comma-separated host names exempt from the private-address rule for callback URLs, for local
   * development and tests only (ignored when NODE_ENV=production).
   */
  WEBHOOK_ALLOW_HOSTS: z.string().default(''),
  /**
   * Comma-separated host names exempt from the private-address rule for the image URLs the remove.bg-compatible
   * API fetches (`image_url`, `bg_image_url`), for local development and tests only (ignored in production).
   */
  IMAGE_URL_ALLOW_HOSTS: z.string().default(''),
  /** How long `POST /v1.0/removebg` waits for its job before cancelling and refunding it (503 + Retry-After). */
  REMOVEBG_SYNC_TIMEOUT_S: z.coerce.number().positive().max(600).default(60),
  /** BullMQ attempts per job and the first retry delay (doubling after each failure). */
  JOB_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  JOB_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  /** How long accepting a job waits for the queue before refunding and answering 503. */
  QUEUE_ADD_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** A job queued or running longer than these is failed and refunded by the reconciler. */
  JOB_QUEUED_TIMEOUT_S: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60),
  JOB_RUNNING_TIMEOUT_S: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  /** How often the reconciler runs, and how long a job must be quiet before it looks at it. */
  JOB_RECONCILE_INTERVAL_S: z.coerce.number().positive().default(30),
  JOB_RECONCILE_GRACE_S: z.coerce.number().min(0).default(60),
  /** How often expired results are looked for and deleted. */
  RETENTION_INTERVAL_S: z.coerce.number().positive().default(3600),
  /** A request's headers must arrive within this (ms), the whole request (uploads too) within the next; else 408. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Ten minutes: the largest request is a 200 MB batch upload, which needs ~10 min on a 3 Mbit/s uplink. A
  // shorter limit turned a large batch from a home connection into a 408 after the customer had waited for it.
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
  /** A JSON or urlencoded body on /api (at most 100 KB) must arrive whole within this (ms); else 408. */
  HTTP_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * A download (token activity CSV, batch ZIP) whose client reads nothing for this long (ms) is ended, so a
   * client that opens downloads and never reads them cannot hold sockets and what feeds them.
   */
  DOWNLOAD_STALL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * Megabytes of uploads one API process keeps on disk at once (received bodies and inflated ZIP entries, in
   * UPLOAD_TMP_DIR), reserved as their bytes arrive; an upload that does not fit gets a 503 with Retry-After.
   */
  UPLOAD_DISK_MB: z.coerce.number().int().positive().default(2048),
  /** Where uploads are written while they are checked (default: the system's temporary folder). */
  UPLOAD_TMP_DIR: z.string().min(1).optional(),
  /** Uploads one user may have in flight in one API process; one more is a 429 with Retry-After. */
  UPLOAD_MAX_PER_USER: z.coerce.number().int().positive().default(2),
  /** Uploads one API key may have in flight per API process (scripts send several at once); 429 beyond. */
  UPLOAD_MAX_PER_API_KEY: z.coerce.number().int().positive().default(8),
  /** An upload body slower than UPLOAD_MIN_RATE_KB_S averaged over UPLOAD_RATE_WINDOW_S ends with 408. */
  UPLOAD_MIN_RATE_KB_S: z.coerce.number().min(0).default(16),
  UPLOAD_RATE_WINDOW_S: z.coerce.number().positive().default(30),
  /** Bearer token that GET /api/metrics requires; unset, metrics are not served at all. */
  METRICS_TOKEN: z.string().min(16).optional(),
  CLIENT_DIST_DIR: z.string().default('client/dist'),
  /** Serve the client's source maps (and point browsers at them); off, they stay on disk for the operator. */
  SOURCE_MAPS_PUBLIC: envBool.default(false),
  /** How often (ms) an API process asks Postgres whether the catalog changed (0 = on every request). */
  CATALOG_CACHE_CHECK_MS: z.coerce.number().int().min(0).default(1000),
  /** Cache-Control max-age (seconds) of catalog replies (languages, strings, settings, packs...). */
  CATALOG_MAX_AGE_S: z.coerce.number().int().min(0).default(60),
});

export type Env = z.infer<typeof envSchema>;

/** Every variable the API reads (the deployment files' tests check the names they set against it). */
export const SERVER_ENV_NAMES: readonly string[] = Object.freeze(Object.keys(envSchema.shape));
export type Config = Readonly<Env & { APP_URL: string; ROOT_DIR: string }>;

export { ConfigError };

/**
 * What production refuses: the development session secret; the embedded S3 server (it checks no
 * signatures, so anyone reaching it could list, read, write and delete every object); and TRUST_PROXY=true,
 * which believes any client's X-Forwarded-For (rate limits per address could then be dodged by forging it).
 * SMTP_URL is optional: without it mail goes to the outbox file, and the mailer says so once at start.
 */
function productionProblems(value: Env): string[] {
  const problems: string[] = [];
  if (value.SESSION_SECRET === DEV_SESSION_SECRET)
    problems.push('SESSION_SECRET: must be set to a long random string in production');
  if (!value.S3_ENDPOINT)
    problems.push('S3_ENDPOINT: must point at a real S3 store in production (the embedded one has no access control)');
  if (value.TRUST_PROXY === 'true')
    problems.push(
      'TRUST_PROXY: "true" trusts forged X-Forwarded-For; give the number of proxy hops or their addresses',
    );
  return problems;
}

/** Parses an environment (process.env by default) into the frozen server configuration. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const value = parseEnv(envSchema, env);
  if (value.NODE_ENV === 'production') {
    const problems = productionProblems(value);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return Object.freeze({
    ...value,
    APP_URL: (value.APP_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, ''),
    ROOT_DIR: projectRoot(),
  });
}

/** Resolves a configured path relative to the repository root (absolute paths stay as they are). */
export function fromRoot(config: Config, p: string): string {
  return path.isAbsolute(p) ? p : path.join(config.ROOT_DIR, p);
}
