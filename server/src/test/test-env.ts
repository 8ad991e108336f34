/**
 * Where tests find their services. Each developer or parallel run may point at its own database with
 * TEST_DATABASE_URL; the defaults are a dedicated test database and Redis db 14 (queue in db 15), so
 * tests never touch development data.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/imagestudio_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
export const TEST_QUEUE_REDIS_DB = Number(process.env.TEST_QUEUE_REDIS_DB ?? 15);
