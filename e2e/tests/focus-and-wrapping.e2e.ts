import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { E2E_DATABASE_URL } from '@imagestudio/runtime/testing';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { signedInPage } from '../lib/users';

/**
 * Focus rings and word wrapping in Chromium: the heading that script focuses after a route change shows no
 * ring (a keyboard-reachable link still does), and on a phone German token activity keeps its words whole.
 */

/** Browser-side code as text: this project's e2e code is compiled without the DOM's types. */
const js = String.raw;

/** The outline style of the focused element and its tag. */
async function focused(page: Page): Promise<{ tag: string; outline: string }> {
  return (await page.evaluate(
    js`(() => { const el = document.activeElement; return { tag: el ? el.tagName : '', outline: el ? getComputedStyle(el).outlineStyle : '' }; })()`,
  )) as { tag: string; outline: string };
}

const headingFocused = js`document.activeElement && document.activeElement.tagName === 'H1'`;

test('a route change focuses the heading without a ring; Tab onto a link shows one', async ({ ctx }) => {
  const page = await ctx.newPage({ width: 1280, height: 900 });
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  // A signed-in page opened as a guest: the app sends the browser on to sign-in with nothing focused before.
  await page.goto('/account/profile');
  await page.waitForURL((url) => url.pathname === '/login');
  await page.waitForFunction(headingFocused);
  const afterRedirect = await focused(page);
  check(afterRedirect.outline === 'none', `the heading after the redirect has a ${afterRedirect.outline} outline`);

  await page.getByRole('link', { name: 'Sign up' }).first().click();
  await page.waitForURL((url) => url.pathname === '/register');
  await page.waitForFunction(headingFocused);
  const afterClick = await focused(page);
  check(afterClick.outline === 'none', `the heading after a click has a ${afterClick.outline} outline`);

  await page.keyboard.press('Tab');
  const tabbed = await focused(page);
  check(
    tabbed.tag !== 'H1' && tabbed.outline === 'solid',
    `Tab reached ${tabbed.tag} with a ${tabbed.outline} outline`,
  );
  await ctx.screenshot(page, 'focus-after-route-change');
});

test('German token activity on a phone keeps its words whole', async ({ ctx }) => {
  const page = await signedInPage(ctx, 'wrapping', 360);
  const email = (await page.evaluate(async () => {
    const reply = await fetch('/api/user/profile', { credentials: 'same-origin' });
    return ((await reply.json()) as { payload: { email: string } }).payload.email;
  })) as string;
  // An operator's adjustment ("Korrektur") with a long reason, as the CLI makes one.
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/admin.ts',
      'users',
      'grant',
      email,
      '1',
      '--reason',
      'Kulanzgutschrift nach Rückfrage',
    ],
    {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: 'warn' },
      timeout: 60_000,
    },
  );
  await page.goto('/account/token-activity');
  await page.getByTestId('ledger-row').first().waitFor();
  await page.getByLabel('Language').first().selectOption({ label: 'Deutsch' });
  await page.getByText('Korrektur').first().waitFor();
  const lang = (await page.evaluate('document.documentElement.lang')) as string;
  check(lang === 'de', `the document's lang is "${lang}" in the German UI`);
  // Every kind label on one line: a word split over lines has boxes on more than one line.
  const split = (await page.evaluate(
    js`[...document.querySelectorAll('[data-testid="ledger-row"] .ledger-kind')].filter((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
    }).map((el) => el.textContent)`,
  )) as string[];
  check(split.length === 0, `kind labels broken inside a word: ${JSON.stringify(split)}`);
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
  check(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  await ctx.screenshot(page, 'german-token-activity-phone');
});
