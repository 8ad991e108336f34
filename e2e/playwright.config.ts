import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@imagestudio/runtime/testing';

/**
 * `npm run test:e2e` = `playwright test -c e2e/playwright.config.ts`: the browser tests against the real API
 * (started once by global-setup.ts) in Debian's Chromium, never a downloaded browser. Pick tests with
 * `npm run test:e2e -- --grep <regex>` or E2E_ONLY=<regex> (case-insensitive; matched against the file name
 * and the test name).
 */
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : undefined;

export default defineConfig({
  testDir: 'tests',
  testMatch: '*.e2e.ts',
  grep: only,
  // One API, one database and one job worker at a time (WorkerControl): tests run one after another.
  workers: 1,
  fullyParallel: false,
  // A retry would hide a flaky test; a failure is reported as one.
  retries: 0,
  // Tests with CPU inference wait up to 120 s per job (a batch up to 240 s) on a shared 2-core machine.
  timeout: 5 * 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './global-setup.ts',
  outputDir: path.join('artifacts', 'test-results'),
  // The list as tests finish, then one "N passed, N failed" line for .ci/run.
  reporter: [['list'], ['./summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
    // Every open page of a failed test, whole, next to its error in e2e/artifacts/test-results/.
    screenshot: { mode: 'only-on-failure', fullPage: true },
    trace: 'off',
    video: 'off',
  },
});
