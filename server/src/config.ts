import path from 'node:path';
import { z } from 'zod';

/**
 * The API process's configuration: every environment variable it reads, validated once at boot.
 * Nothing else in the server reads process.env (style.md rule 5).
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false'),

  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/imagestudio'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Redis database index for the BullMQ queue (sessions and limits use the one in REDIS_URL). */
  QUEUE_REDIS_DB: z.coerce.number().int().min(0).max(15).default(1),
  /** BullMQ key prefix; tests give each run its own so queues never mix. */
  QUEUE_PREFIX: z.string().min(1).default('bull'),

  SESSION_SECRET: z.string().min(16).default('dev-only-session-secret-change-me'),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),

  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().min(3).default('imagestudio'),
  S3_ACCESS_KEY_ID: z.string().default('S3RVER'),
  S3_SECRET_ACCESS_KEY: z.string().default('S3RVER'),
  S3_FORCE_PATH_STYLE: bool.default(true),
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
  CLIENT_DIST_DIR: z.string().default('client/dist'),
});

export type Env = z.infer<typeof envSchema>;
export type Config = Readonly<Env & { APP_URL: string; ROOT_DIR: string }>;

/** Repository root: server/src/config.ts is two folders below it. */
const ROOT_DIR = path.resolve(__dirname, '..', '..');

/** Thrown with one line per invalid variable, so the operator fixes them all at once. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses an environment (process.env by default) into the frozen server configuration. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings (e.g. `S3_ENDPOINT=` in a .env file) mean "unset", as they do for a shell user.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const value = parsed.data;
  return Object.freeze({
    ...value,
    APP_URL: (value.APP_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, ''),
    ROOT_DIR,
  });
}

/** Resolves a configured path relative to the repository root (absolute paths stay as they are). */
export function fromRoot(config: Config, p: string): string {
  return path.isAbsolute(p) ? p : path.join(config.ROOT_DIR, p);
}
