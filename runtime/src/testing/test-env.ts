/**
 * Where every test suite (jest in each workspace, the browser tests, the benchmarks' fixtures) finds its
 * services. Each developer or parallel run may point at its own database and Redis dbs; the defaults are a
 * dedicated test database and Redis db 14 (queue in db 15), so tests never touch development data
 * (`npm start` uses imagestudio and dbs 0 and 1).
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/imagestudio_test';
/** Sessions and rate limits of test apps. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
/** The queue's Redis db of test apps and workers (on the server of TEST_REDIS_URL). */
export const TEST_QUEUE_REDIS_DB = Number(process.env.TEST_QUEUE_REDIS_DB ?? 15);
/** The browser tests' own database (created, migrated and seeded by `npm run test:e2e`). */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/imagestudio_e2e';
/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * The flags every headless Chromium of the tests and benchmarks runs with: no GPU, no sandbox (containers), and
 * nothing that reaches out on its own (background networking, component updates, first-run pages).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/**
 * `HEIF_FIXTURES=write`: heifEnc encodes an input it has no fixture for with heif-enc and stores the result
 * (runtime/src/testing/heif-fixtures/README.md); otherwise a missing fixture fails the test.
 */
export const HEIF_FIXTURES_WRITE = process.env.HEIF_FIXTURES === 'write';
