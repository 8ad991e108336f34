import { z } from 'zod';
import { JOB_NAMES } from '@imagestudio/contracts';

/**
 * The environment variables the API and the worker read alike, and the one way both turn an environment into
 * a frozen configuration: every invalid variable is reported at once, so the operator fixes them in one go.
 */

/** "true/false/1/0/yes/no" as a boolean. */
export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list of tool names ("remove-background,upscale"), each one the registry knows. */
export const envToolList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(JOB_NAMES)).min(1));

/** Settings of every process. */
export const processEnv = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** Where the queue lives: the Redis server, the database index of the queue's keys, and their prefix. */
export const queueEnv = {
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Redis database index for the BullMQ queue (the API's sessions and limits use the one in REDIS_URL). */
  QUEUE_REDIS_DB: z.coerce.number().int().min(0).max(15).default(1),
  /** BullMQ key prefix; tests give each run its own so queues never mix. */
  QUEUE_PREFIX: z.string().min(1).default('bull'),
};

/** The S3 store both processes read and write (the endpoint's rule differs per process, so it is theirs). */
export const s3Env = {
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().min(3).default('imagestudio'),
  S3_ACCESS_KEY_ID: z.string().default('S3RVER'),
  S3_SECRET_ACCESS_KEY: z.string().default('S3RVER'),
  S3_FORCE_PATH_STYLE: envBool.default(true),
};

/** Thrown with one line per invalid variable. */
export class ConfigError extends Error {
  constructor(
    public readonly problems: string[],
    title = 'Invalid configuration',
  ) {
    super(`${title}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Parses an environment against a schema. Empty strings (e.g. `S3_ENDPOINT=` in a .env file) mean "unset", as
 * they do for a shell user.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, title?: string): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      title,
    );
  return parsed.data;
}
