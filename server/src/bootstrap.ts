import { fromRoot, type Config } from './config';
import type { AppDeps } from './context';
import { closeServices, type AppServices } from './services';
import { connectDb } from './lib/db';
import { createLogger, type Logger } from '@imagestudio/runtime';
import { createQueue } from './lib/queue';
import { connectRedis, throttledErrorLog } from '@imagestudio/runtime';
import { Storage } from './lib/storage';

/** Opens every connection the API needs; on failure closes what was opened and rethrows. */
export async function openDeps(
  config: Config,
  logger: Logger = createLogger(config.LOG_LEVEL, 'api'),
): Promise<AppDeps> {
  const opened: Array<() => Promise<unknown>> = [];
  try {
    const db = await connectDb(config.DATABASE_URL);
    opened.push(() => db.destroy());
    const redis = await connectRedis(config.REDIS_URL, { name: 'api' });
    opened.push(() => redis.quit());
    const queueRedis = await connectRedis(config.REDIS_URL, { database: config.QUEUE_REDIS_DB, name: 'api-queue' });
    opened.push(() => queueRedis.quit());
    const storage = await Storage.open(
      {
        endpoint: config.S3_ENDPOINT,
        publicEndpoint: config.S3_PUBLIC_ENDPOINT,
        region: config.S3_REGION,
        bucket: config.S3_BUCKET,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        localDir: fromRoot(config, config.S3_LOCAL_DIR),
        localPort: config.S3_LOCAL_PORT,
        appOrigin: new URL(config.APP_URL).origin,
      },
      logger,
    );
    opened.push(() => storage.close());
    const queue = createQueue(queueRedis, config.QUEUE_PREFIX, {
      attempts: config.JOB_ATTEMPTS,
      firstRetryDelayMs: config.JOB_RETRY_DELAY_MS,
    });
    queue.on(
      'error',
      throttledErrorLog((err, skipped) => logger.error({ err: err.message, skipped }, 'queue error')),
    );
    return { config, logger, db, redis, queueRedis, queue, storage };
  } catch (err) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw err;
  }
}

/**
 * Closes users before what they use: the app's services when given its context (`app.locals.ctx`), then
 * queue, Redis, storage, and knex.
 */
export async function closeDeps(deps: AppDeps & { services?: AppServices }): Promise<void> {
  if (deps.services) await closeServices(deps.services).catch(() => undefined);
  await deps.queue.close().catch(() => undefined);
  await deps.queueRedis.quit().catch(() => undefined);
  await deps.redis.quit().catch(() => undefined);
  await deps.storage.close().catch(() => undefined);
  await deps.db.destroy().catch(() => undefined);
}
