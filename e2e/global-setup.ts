import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH, E2E_DATABASE_URL, freePort } from '@imagestudio/runtime/testing';
import { prepareDatabase } from '../server/src/lib/migrator';
import { buildClientIfNeeded } from '../scripts/lib/client-build';
import { runPrefixes, startApi } from './lib/api-server';
import { ARTIFACTS_DIR } from './lib/harness';

/**
 * Playwright's global setup for `npm run test:e2e`, run once in the runner process before any test: prepares
 * the e2e database (imagestudio_e2e by default: created, migrated, seeded), builds the client when its build
 * is missing or older than its sources, empties e2e/artifacts/ (screenshots, mail outbox) and starts the real
 * API on a free port with its embedded S3 server on a known port. Tests run in other processes, so what they
 * need travels in environment variables, which Playwright passes on to its workers. The function returned is
 * the global teardown: Playwright runs it after the tests, also when they fail or the run is interrupted
 * (Ctrl-C); a runner killed outright takes the API with it (runtime/src/exit-with-parent.ts).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  // Playwright has already emptied its own output folder (e2e/artifacts/test-results) by now.
  fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const outboxFile = path.join(ARTIFACTS_DIR, 'mail-outbox.jsonl');
  buildClientIfNeeded();
  await prepareDatabase(E2E_DATABASE_URL);

  // Queue and rate-limit keys of this run only: a worker or limit counter of an earlier run never interferes.
  const runId = randomUUID().slice(0, 8);
  // A known S3 port, so the real worker (tools tests) can be pointed at the API's embedded S3 server.
  const s3Port = await freePort();
  const api = await startApi({
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    DATABASE_URL: E2E_DATABASE_URL,
    MAIL_OUTBOX_FILE: outboxFile,
    SMTP_URL: '',
    S3_ENDPOINT: '',
    S3_LOCAL_PORT: String(s3Port),
    S3_LOCAL_DIR: path.join('data', 's3-e2e'),
    ...runPrefixes(runId),
    TRUST_PROXY: 'loopback',
  });
  process.env.E2E_BASE_URL = api.baseUrl;
  process.env.E2E_OUTBOX_FILE = outboxFile;
  process.env.E2E_S3_PORT = String(s3Port);
  process.env.E2E_RUN_ID = runId;
  console.log(`e2e: API at ${api.baseUrl}, run ${runId}; screenshots in e2e/artifacts/`);
  return () => api.stop();
}
