import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check, type E2EContext } from '../lib/harness';
import { allToolsWorker, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** Browser-side code as text: the e2e TypeScript project has no DOM types. */
const js = String.raw;

/** The narrowest phone we design for (design notes: 360 px). */
const PHONE = { width: 360, height: 780 };

type PathTable = { [key: string]: string | ((id: string) => string) | PathTable };

/**
 * Every page of the client, read from the client's own route tables (`paths` and each tool's page and landing
 * page in `TOOLS`), so a page added there is walked here without editing this test. The files are loaded at
 * run time (Playwright compiles them); the specifiers are not literals because the client is not part of the
 * e2e TypeScript project. Routes with a parameter get a sample value: the first static page, and a receipt
 * that does not exist (its "not found" state must fit too).
 */
async function clientRoutes(): Promise<string[]> {
  const config = path.join(__dirname, '..', '..', 'client', 'src', 'config');
  const pathsFile: string = path.join(config, 'paths.ts');
  const toolsFile: string = path.join(config, 'tools.ts');
  const { paths } = (await import(pathsFile)) as { paths: PathTable };
  const { TOOLS } = (await import(toolsFile)) as { TOOLS: Record<string, { path: string; landingPath: string }> };
  const found = new Set<string>();
  // Sample values: static page 1 is seeded; a receipt id that is nobody's shows the receipt's "not found" state.
  const samples: Record<string, string> = { receipt: randomUUID() };
  const walk = (table: PathTable) => {
    for (const [name, value] of Object.entries(table)) {
      if (typeof value === 'string') found.add(value);
      else if (typeof value === 'function') found.add(value(samples[name] ?? '1'));
      else walk(value);
    }
  };
  walk(paths);
  for (const tool of Object.values(TOOLS)) {
    found.add(tool.path);
    found.add(tool.landingPath);
  }
  return [...found];
}

/** How far the page is wider than the screen, and the widest elements sticking out (for the message). */
async function sidewaysScroll(page: Page): Promise<{ extra: number; culprits: string[] }> {
  return (await page.evaluate(js`(() => {
    const root = document.documentElement;
    const extra = root.scrollWidth - root.clientWidth;
    // Elements sticking out that no scrolling box of their own holds (a code block scrolls inside itself).
    const inScroller = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 && !inScroller(el))
      .slice(-4)
      .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '" (' + Math.round(el.getBoundingClientRect().right) + ' px)');
    return { extra, culprits };
  })()`)) as { extra: number; culprits: string[] };
}

/**
 * Opens each route at 360 px, waits for it to settle, keeps a picture and collects every page that scrolls
 * sideways or offers a browser date picker.
 */
async function walk(page: Page, routes: string[], tag: string): Promise<string[]> {
  const wide: string[] = [];
  for (const route of routes) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    // Lazy chunks and the strings of the language may land after the first idle moment.
    await page.locator('main, [role="main"], h1').first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(300);
    const name = `phone-360-${tag}-${route.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`;
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true, timeout: 60_000 });
    const { extra, culprits } = await sidewaysScroll(page);
    if (extra > 0)
      wide.push(`${route} (${new URL(page.url()).pathname}) is ${extra} px too wide: ${culprits.join(', ')}`);
  }
  return wide;
}

async function toGerman(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).first().waitFor();
  await page.setViewportSize(PHONE);
}

/**
 * The static pages' own routes (`/:slug`, from the operator's pages table): the footer links to each of them.
 * Read from the page, as the client reads them from the API.
 */
async function staticPageRoutes(page: Page): Promise<string[]> {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Information' }).getByRole('link').first().waitFor();
  const hrefs = (await page.evaluate(
    js`[...document.querySelectorAll('footer nav[aria-label="Information"] a')].map((a) => a.getAttribute('href'))`,
  )) as string[];
  return hrefs.filter((h) => h.startsWith('/'));
}

/** Both languages, one after the other, on the page's session. */
async function walkBoth(page: Page, clientRoutes: string[], who: string): Promise<string[]> {
  await page.setViewportSize(PHONE);
  const routes = [...new Set([...clientRoutes, ...(await staticPageRoutes(page))])];
  const wide = await walk(page, routes, `${who}-en`);
  await toGerman(page);
  wide.push(...(await walk(page, routes, `${who}-de`)));
  return wide;
}

async function guestPage(ctx: E2EContext): Promise<Page> {
  const page = await ctx.newPage(PHONE);
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  return page;
}

test('no page scrolls sideways at 360 px, signed out, English and German (every client route)', async ({ ctx }) => {
  const routes = await clientRoutes();
  check(routes.length > 25, `the client's route tables gave only ${routes.length} routes: ${routes.join(', ')}`);
  const wide = await walkBoth(await guestPage(ctx), routes, 'guest');
  check(wide.length === 0, `pages scroll sideways at 360 px:\n${wide.join('\n')}`);
});

test('no page scrolls sideways at 360 px, signed in, English and German (every client route)', async ({
  ctx,
  workers,
}) => {
  const routes = await clientRoutes();
  const page = await signedInPage(ctx, 'narrow', PHONE.width);
  // The tools' own pages, not the "switched off" note shown without a worker.
  await allToolsWorker(workers, page);
  // One finished job, so request history and token activity have rows to lay out.
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByRole('button', { name: 'Upscale - 1 token' }).click();
  await page.getByTestId('result').waitFor({ timeout: 120_000 });
  const wide = await walkBoth(page, routes, 'user');
  check(wide.length === 0, `pages scroll sideways at 360 px:\n${wide.join('\n')}`);
  // On a phone each history row is a card whose cells say what they are (their column's name).
  await page.goto('/account/request-history');
  const row = page.getByTestId('history-row').first();
  await row.waitFor();
  const labels = (await page.evaluate(
    js`[...document.querySelector('[data-testid="history-row"]').cells].filter((td) => td.getBoundingClientRect().height > 0).map((td) => getComputedStyle(td, '::before').content)`,
  )) as string[];
  check(
    labels.length >= 5 && labels.every((l) => l !== 'none' && l.length > 2),
    `history cells on a phone are labelled ${JSON.stringify(labels)}`,
  );
  check(labels.includes('"Werkzeug"') || labels.includes('"Tool"'), `no tool label among ${JSON.stringify(labels)}`);
  const width = (await row.boundingBox())!.width;
  check(width <= PHONE.width, `a history row is ${width} px wide on a ${PHONE.width} px phone`);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'phone-360-history-row-de.png'), fullPage: true });
});
