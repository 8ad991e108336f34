/**
 * The worker connects to Redis exactly as the API does (fail within 5 s with a clear message, then
 * reconnect with back-off): one implementation, in server/src/lib/redis.ts, which depends on node-redis
 * only, so a GPU host running just the worker loads nothing else of the server.
 */
export { connectRedis, redactUrl, type RedisClient } from '../../../server/src/lib/redis';
export { queueConnection, throttledErrorLog } from '../../../server/src/lib/queue-connection';
