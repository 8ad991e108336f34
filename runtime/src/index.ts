/**
 * What the API and the worker both run on: connecting to Redis (and BullMQ's connection to it), the S3
 * client and key layout, start-up and ordered shutdown, the logger and the shared parts of their
 * configuration. It depends on node-redis, BullMQ, the AWS SDK, pino and zod only, so a GPU host that
 * runs just the worker builds and loads nothing of the API. Image work both share (the product-photo engine,
 * the result encoder) is the separate entry `@imagestudio/runtime/imaging`, the only one that loads sharp.
 */
export { connectRedis, redactUrl, redisOptions, type RedisClient } from './redis';
export { isRedisUnavailable, queueConnection, throttledErrorLog } from './queue-connection';
export { createS3Client, getObjectBytes, putObject, type S3ClientSettings } from './s3-client';
export {
  composeSourceKeys,
  compositionsPrefix,
  inputFileKey,
  inputKey,
  inputPreviewKey,
  inputsPrefix,
  resultKey,
  resultsPrefix,
  thumbnailKey,
  type JobOwner,
} from './storage-keys';
export { loadConfigOrExit, stopOnSignals } from './boot';
export { superviseApiAndWorker, type Supervisor, type SupervisorOptions } from './supervisor';
export { EXIT_WITH_PARENT, killOnExit } from './child-guard';
export { createLogger, type Logger } from './logger';
export { fromProjectRoot, projectRoot } from './root';
export { ConfigError, envBool, envToolList, parseEnv, processEnv, queueEnv, s3Env } from './env';
