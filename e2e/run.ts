/**
 * `npm run test:e2e`: browser tests of the real app. Prepares its own database (imagestudio_e2e by default,
 * created, migrated and seeded), builds the client when its build is missing or older than its sources,
 * starts the real API on a free port, runs every test in headless Debian Chromium through playwright-core,
 * saves screenshots under e2e/artifacts/, and ends with "N passed, N failed" (non-zero exit on failure).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, E2E_DATABASE_URL, freePort } from '@imagestudio/runtime/testing';
import { connectDb, ensureDatabase } from '../server/src/lib/db';
import { migrateLatest, runSeeds } from '../server/src/lib/migrator';
import { buildClientIfNeeded } from '../scripts/lib/client-build';
import { startApi } from './lib/api-server';
import { ARTIFACTS_DIR, runTests } from './lib/harness';
import { WorkerControl } from './lib/worker-process';
import { guestRedirect, loginErrors, phoneCountryLookup, signUpJourney } from './tests/accounts.e2e';
import { cookieBanner, german, keyboardAndMobile, notFound, smoke } from './tests/shell.e2e';
import { availabilityTests } from './tests/availability.e2e';
import { experienceTests } from './tests/experience.e2e';
import { toolTests } from './tests/tools.e2e';
import { batchTests } from './tests/batches.e2e';
import { paymentTests } from './tests/payments.e2e';
import { developerTests } from './tests/developer.e2e';

const ROOT = path.resolve(__dirname, '..');
const CHROMIUM = CHROMIUM_PATH;
const DATABASE_URL = E2E_DATABASE_URL;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const TESTS = [
  smoke,
  notFound,
  cookieBanner,
  german,
  keyboardAndMobile,
  signUpJourney,
  guestRedirect,
  loginErrors,
  phoneCountryLookup,
  ...paymentTests,
  ...developerTests,
];

async function prepareDatabase(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const db = await connectDb(DATABASE_URL, { min: 0, max: 2 });
  try {
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<number> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const outboxFile = path.join(ARTIFACTS_DIR, 'mail-outbox.jsonl');
  buildClientIfNeeded();
  await prepareDatabase();

  const runId = randomUUID().slice(0, 8);
  // A known S3 port, so the real worker (tools tests) can be pointed at the API's embedded S3 server.
  const s3Port = await freePort();
  const api = await startApi({
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    DATABASE_URL,
    MAIL_OUTBOX_FILE: outboxFile,
    SMTP_URL: '',
    S3_ENDPOINT: '',
    S3_LOCAL_PORT: String(s3Port),
    S3_LOCAL_DIR: path.join('data', 's3-e2e'),
    QUEUE_PREFIX: `e2e-${runId}`,
    RATE_LIMIT_PREFIX: `rl-e2e-${runId}`,
    TRUST_PROXY: 'loopback',
  });
  const workers = new WorkerControl({
    LOG_LEVEL: 'warn',
    QUEUE_PREFIX: `e2e-${runId}`,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    WORKER_EXECUTION_PROVIDERS: 'cpu',
    // Warm-up runs would only delay each worker start the tests make; worker/src/app.test.ts covers them.
    WORKER_WARMUP_RUNS: '0',
  });
  TESTS.push(
    ...availabilityTests(workers),
    ...toolTests(workers, { endpoint: `http://127.0.0.1:${s3Port}`, bucket: 'imagestudio' }),
    ...experienceTests(workers),
    ...batchTests(workers),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    console.log(`e2e: ${TESTS.length} tests against ${api.baseUrl}`);
    // E2E_ONLY=<regex> runs only the tests whose names match (for working on one area).
    const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : null;
    const { passed, failed } = await runTests(only ? TESTS.filter((t) => only.test(t.name)) : TESTS, {
      baseUrl: api.baseUrl,
      outboxFile,
      browser,
    });
    console.log(`screenshots: ${path.relative(ROOT, ARTIFACTS_DIR)}/`);
    console.log(`${passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    await browser.close().catch(() => undefined);
    await workers.stop();
    await api.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`e2e could not run: ${err.message}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
