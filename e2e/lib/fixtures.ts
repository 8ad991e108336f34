// Playwright reads a fixture's dependencies from its destructuring pattern: one without any is `({}, use)`.
/* eslint-disable no-empty-pattern */
import path from 'node:path';
import { test as base, type BrowserContext, type Page } from '@playwright/test';
import { runPrefixes } from './api-server';
import { ARTIFACTS_DIR, axeFindings, type E2EContext } from './harness';
import { WorkerControl } from './worker-process';

/**
 * The fixtures of the browser tests. The API, its embedded S3 server and the mail outbox belong to the whole
 * run (e2e/global-setup.ts starts them and hands them over in E2E_* variables); every test gets fresh
 * browser contexts; a Playwright worker process owns one WorkerControl, whose job-worker children it stops
 * at its teardown (also when Playwright replaces the process after a failed test).
 */
export interface E2EFixtures {
  /** A fresh browser context per call (own cookies, own simulated visitor address); all closed after the test. */
  newPage: E2EContext['newPage'];
  /**
   * Full-page PNG in e2e/artifacts/<name>.png, then axe-core: fails on serious or critical findings. (Not
   * named `screenshot`: that is Playwright's own option, which takes the failure screenshots.)
   */
  checkedScreenshot: E2EContext['screenshot'];
  /** baseUrl, outboxFile, newPage and checkedScreenshot (as `screenshot`) in one object, as the helpers take them. */
  ctx: E2EContext;
}

export interface E2EWorkerFixtures {
  /** The API's origin, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  /** The JSONL file the API writes every mail to (MAIL_OUTBOX_FILE). */
  outboxFile: string;
  /** The API's embedded S3 server, for tests that reach into storage. */
  s3: { endpoint: string; bucket: string };
  /** Starts real job workers (CPU, models/.cache) against the run's queue and S3 server, one at a time. */
  workers: WorkerControl;
}

function fromSetup(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with npm run test:e2e (global setup sets it)`);
  return value;
}

/** Visitors made in this worker process; the address also depends on the process, see `newPage`. */
let visitors = 0;

export const test = base.extend<E2EFixtures, E2EWorkerFixtures>({
  baseUrl: [async ({}, use) => use(fromSetup('E2E_BASE_URL')), { scope: 'worker' }],
  outboxFile: [async ({}, use) => use(fromSetup('E2E_OUTBOX_FILE')), { scope: 'worker' }],
  s3: [
    async ({}, use) => use({ endpoint: `http://127.0.0.1:${fromSetup('E2E_S3_PORT')}`, bucket: 'imagestudio' }),
    { scope: 'worker' },
  ],

  workers: [
    async ({ s3 }, use) => {
      const workers = new WorkerControl({
        LOG_LEVEL: 'warn',
        QUEUE_PREFIX: runPrefixes(fromSetup('E2E_RUN_ID')).QUEUE_PREFIX,
        S3_ENDPOINT: s3.endpoint,
        WORKER_EXECUTION_PROVIDERS: 'cpu',
        // Warm-up runs would only delay each worker start the tests make; worker/src/app.test.ts covers them.
        WORKER_WARMUP_RUNS: '0',
      });
      try {
        await use(workers);
      } finally {
        await workers.stop();
      }
    },
    // Stopping a worker waits up to 15 s for its graceful exit before SIGKILL.
    { scope: 'worker', timeout: 30_000 },
  ],

  newPage: async ({ browser, baseUrl }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    await use(async ({ width = 1280, height = 800, ...rest } = {}) => {
      // bypassCSP lets the accessibility check inject axe as an inline script; outside requests are refused
      // below, whatever the policy says. Each context is its own visitor address (the API trusts
      // X-Forwarded-For from loopback in e2e), so per-IP limits such as sign-ups per hour apply per simulated
      // visitor, as they do in production. The worker index is part of it: Playwright starts a new worker
      // process after a failure, and its visitors must not reuse the addresses (and the used-up limits) of
      // the ones before.
      visitors += 1;
      const visitor = testInfo.workerIndex * 1000 + visitors;
      const forwardedFor = `10.77.${Math.floor(visitor / 250) % 250}.${(visitor % 250) + 1}`;
      const context = await browser.newContext({
        viewport: { width, height },
        baseURL: baseUrl,
        bypassCSP: true,
        ...rest,
        extraHTTPHeaders: { 'X-Forwarded-For': forwardedFor, ...rest.extraHTTPHeaders },
      });
      contexts.push(context);
      await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    });
    // Playwright has taken the failure screenshots of every open page (use.screenshot) before this runs.
    for (const context of contexts) await context.close().catch(() => undefined);
  },

  checkedScreenshot: async ({}, use) => {
    await use(async (page: Page, name: string) => {
      const file = path.join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true, timeout: 60_000 });
      // Every state a test pictures is also checked for accessibility.
      const findings = await axeFindings(page);
      if (findings.length > 0) throw new Error(`axe found serious problems on ${name}: ${findings.join('; ')}`);
      return file;
    });
  },

  ctx: async ({ baseUrl, outboxFile, newPage, checkedScreenshot }, use) => {
    await use({ baseUrl, outboxFile, newPage, screenshot: checkedScreenshot });
  },
});
