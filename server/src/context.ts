import type { Config } from './config';
import type { Db } from './lib/db';
import type { ImagesQueue } from './lib/queue';
import type { Logger } from '@imagestudio/runtime';
import type { RedisClient } from '@imagestudio/runtime';
import type { Storage } from './lib/storage';
import type { Metrics } from './http/metrics';
import type { AppServices } from './services';

/** Everything createApp needs from outside: connections are made by main.ts (or a test) and passed in. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Db;
  /** Redis db of REDIS_URL: sessions and rate limits. */
  redis: RedisClient;
  /** Redis db QUEUE_REDIS_DB: BullMQ, worker heartbeats and cancellation flags (all a worker can reach). */
  queueRedis: RedisClient;
  queue: ImagesQueue;
  storage: Storage;
}

/** What every module router receives: the deps plus the app-wide services createApp builds. */
export interface AppContext extends AppDeps {
  metrics: Metrics;
  /** Built once per app by createServices (server/src/services.ts). */
  services: AppServices;
}
