import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from '@playwright/test';

/** Screenshots, downloads and the mail outbox of a run; Playwright's own output goes to test-results/ in it. */
export const ARTIFACTS_DIR = path.join(__dirname, '..', 'artifacts');

/**
 * What the browser-test helpers (signedInPage, verifiedAccount, shots, ...) need from a test: the app's base
 * URL, the mail outbox and the page and picture fixtures (e2e/lib/fixtures.ts gives it as `ctx`).
 */
export interface E2EContext {
  baseUrl: string;
  outboxFile: string;
  /** A fresh browser context (own cookies and storage) at a viewport width; closed after the test. */
  newPage(options?: { width?: number; height?: number } & BrowserContextOptions): Promise<Page>;
  /** Saves a full-page PNG as e2e/artifacts/<name>.png and fails on serious or critical axe findings. */
  screenshot(page: Page, name: string): Promise<string>;
}

/** Fails a test with a message when a condition does not hold. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core on the page as it is and returns its serious and critical findings, one line each with
 * up to three of the elements concerned (an empty list when there are none).
 */
export async function axeFindings(page: Page): Promise<string[]> {
  // Animations finished first: a half-faded element is not what users read.
  await page.waitForTimeout(250);
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(
    `window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.help}) at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}
