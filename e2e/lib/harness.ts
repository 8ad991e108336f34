import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

export const ARTIFACTS_DIR = path.join(__dirname, '..', 'artifacts');

/** What every browser test gets: the app's base URL, the mail outbox, and helpers for pages and pictures. */
export interface E2EContext {
  baseUrl: string;
  outboxFile: string;
  browser: Browser;
  /** A fresh browser context (own cookies and storage) at a viewport width; closed after the test. */
  newPage(options?: { width?: number; height?: number } & BrowserContextOptions): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
}

export interface E2ETest {
  name: string;
  run(ctx: E2EContext): Promise<void>;
}

/** Fails a test with a message when a condition does not hold. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Runs tests one after another, each with its own contexts; a failure leaves a screenshot of every open page. */
export async function runTests(
  tests: E2ETest[],
  base: Omit<E2EContext, 'newPage' | 'screenshot'>,
): Promise<{ passed: number; failed: number }> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  let passed = 0;
  let failed = 0;
  let visitor = 0;
  for (const test of tests) {
    const contexts: BrowserContext[] = [];
    const pages: Page[] = [];
    const ctx: E2EContext = {
      ...base,
      async newPage({ width = 1280, height = 800, ...rest } = {}) {
        // bypassCSP lets a test answer the IP-to-country lookup with page.route; nothing leaves the machine.
        // Each context is its own visitor address (the API trusts X-Forwarded-For from loopback in e2e), so
        // per-IP limits such as sign-ups per hour apply per simulated visitor, as they do in production.
        visitor += 1;
        const forwardedFor = `10.77.${Math.floor(visitor / 250) % 250}.${(visitor % 250) + 1}`;
        const context = await base.browser.newContext({
          viewport: { width, height },
          baseURL: base.baseUrl,
          bypassCSP: true,
          ...rest,
          extraHTTPHeaders: { 'X-Forwarded-For': forwardedFor, ...rest.extraHTTPHeaders },
        });
        await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
        contexts.push(context);
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        pages.push(page);
        return page;
      },
      async screenshot(page, name) {
        const file = path.join(ARTIFACTS_DIR, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true, timeout: 60_000 });
        // Every state a test pictures is also checked for accessibility.
        const findings = await axeFindings(page);
        if (findings.length > 0) throw new Error(`axe found serious problems on ${name}: ${findings.join('; ')}`);
        return file;
      },
    };
    const started = Date.now();
    try {
      await test.run(ctx);
      passed += 1;
      console.log(`  ok   ${test.name} (${Date.now() - started} ms)`);
    } catch (err) {
      failed += 1;
      console.log(`  FAIL ${test.name}: ${(err as Error).message}`);
      for (const [i, page] of pages.entries()) {
        await page
          .screenshot({ path: path.join(ARTIFACTS_DIR, `failure-${slug(test.name)}-${i}.png`), fullPage: true })
          .catch(() => undefined);
      }
    } finally {
      for (const context of contexts) await context.close().catch(() => undefined);
    }
  }
  return { passed, failed };
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

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}
