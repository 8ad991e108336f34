import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { check, type E2EContext } from '../lib/harness';
import { allToolsWorker, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** Browser-side code as text: the e2e TypeScript project has no DOM types. */
const js = String.raw;

/** Waits for the page's heading and checks the document title is named after it. */
async function titled(page: Page, path: string): Promise<string> {
  await page.locator('main h1').first().waitFor({ timeout: 20_000 });
  // The strings of the chosen language may arrive after the first paint: wait until title and heading agree,
  // then read both (a title that never follows its heading still fails below).
  const agree = js`(() => {
    const h = (document.querySelector('main h1')?.textContent ?? '').trim();
    return document.title === (${JSON.stringify(path)} === '/' ? 'Image Studio' : h + ' - Image Studio');
  })()`;
  await page.waitForFunction(agree, undefined, { timeout: 10_000 }).catch(() => undefined);
  const heading = ((await page.locator('main h1').first().textContent()) ?? '').trim();
  const expected = path === '/' ? 'Image Studio' : `${heading} - Image Studio`;
  const title = await page.title();
  check(title === expected, `${path}: the title is "${title}", expected "${expected}"`);
  return heading;
}

/** Visits each path, checks its title and runs axe (through the screenshot) on it. */
async function tour(ctx: E2EContext, page: Page, paths: string[], tag: string): Promise<void> {
  for (const path of paths) {
    await page.goto(path);
    await titled(page, path);
    await ctx.screenshot(page, `axe-${tag}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`);
  }
}

const GUEST_PAGES = [
  '/',
  '/pricing',
  '/remove-background',
  '/upscale-image',
  '/generate-image',
  '/login',
  '/register',
  '/forgot-password',
  '/static-page/1',
];
/** Every page a signed-in user reaches: the tools, the account area, the payment pages and the developer page. */
const SIGNED_IN_PAGES = [
  '/services/remove-background',
  '/services/upscale',
  '/services/generate-image',
  '/account/profile',
  '/account/my-projects',
  '/account/request-history',
  '/account/payment-history',
  '/account/token-activity',
  '/account/api-keys',
  '/account/change-password',
  '/pricing',
  '/cancelled-payment',
  '/fail-payment',
  '/developers',
];

/**
 * A signed-in page; tried twice, since on a loaded machine a start-up call of the page can still be in
 * flight when the account is made through the API (the harness's sign-up then meets a stale CSRF cookie).
 */
async function userPage(ctx: E2EContext, tag: string, width?: number): Promise<Page> {
  try {
    return await signedInPage(ctx, tag, width);
  } catch {
    return signedInPage(ctx, `${tag}2`, width);
  }
}

async function toGerman(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).first().waitFor();
}

test('every guest page: axe finds nothing serious, English and German; titles, focus on route change, German numbers', async ({
  ctx,
}) => {
  const guest = await ctx.newPage();
  await guest.goto('/');
  await guest.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await tour(ctx, guest, GUEST_PAGES, 'guest-en');
  // After a route change focus is on the new page's heading.
  await guest.goto('/');
  await guest
    .getByRole('navigation', { name: 'Main navigation' })
    .first()
    .getByRole('link', { name: 'Pricing' })
    .click();
  await guest.waitForURL('**/pricing');
  await guest.waitForFunction(`document.activeElement?.tagName === 'H1'`, undefined, { timeout: 5000 });
  check((await guest.title()) === 'Pricing - Image Studio', `pricing is titled "${await guest.title()}"`);
  await toGerman(guest);
  await tour(ctx, guest, GUEST_PAGES, 'guest-de');
  // German money: "1.234,50 €" style, decimal comma.
  await guest.goto('/pricing');
  await guest.locator('.pack-card__price').first().waitFor();
  const prices = await guest.locator('.pack-card__price').allTextContents();
  check(
    prices.some((p) => /\d,\d{2}\s?€/.test(p)),
    `German prices read ${prices.join(' | ')}`,
  );
  // Catalogue texts come through the strings table.
  await guest.getByText('100 Tokens für gelegentliche Bearbeitungen.').waitFor();
});

test('every signed-in page: axe finds nothing serious, English and German; titles', async ({ ctx, workers }) => {
  const user = await userPage(ctx, 'axe');
  // The tool pages themselves, not the "switched off" note a page shows without a worker.
  await allToolsWorker(workers, user);
  await tour(ctx, user, SIGNED_IN_PAGES, 'user-en');
  await toGerman(user);
  await tour(ctx, user, SIGNED_IN_PAGES, 'user-de');
  // The style presets come through the strings table too.
  await user.goto('/services/generate-image');
  await user.getByLabel('Stil').locator('option', { hasText: 'Aquarell' }).waitFor({ state: 'attached' });
});

test('the guest phone menu offers Sign up and says Pricing', async ({ ctx }) => {
  const page = await ctx.newPage({ width: 390, height: 844 });
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await page.reload();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await menu.getByRole('link', { name: 'Sign up' }).waitFor();
  await menu.getByRole('link', { name: 'Pricing' }).waitFor();
  await ctx.screenshot(page, 'mobile-menu-guest-390');
});

test('landing pages and the home strip show before/after pairs our models made; generation shows no photograph', async ({
  ctx,
}) => {
  const page = await ctx.newPage();
  await page.goto('/');
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  // Each pair is one the pipelines made (npm run examples); a 1x screen gets the 1x files, not the 2x ones.
  const made = js`[...document.querySelectorAll('.hero__strip .compare__img')].map((i) => new URL(i.currentSrc).pathname)`;
  await page.reload();
  await page.locator('.hero__strip [data-testid="compare"]').first().waitFor();
  await page.waitForFunction(
    `[...document.querySelectorAll('.hero__strip img')].every((i) => i.complete && i.naturalWidth > 0)`,
  );
  const strip = (await page.evaluate(made)) as string[];
  check(
    strip.length === 6 && strip.every((src) => /^\/examples\/made\/[a-z]+-(before|after)-576\.webp$/.test(src)),
    `the strip shows ${JSON.stringify(strip)}`,
  );
  await ctx.screenshot(page, 'home-examples-1280');
  // The three cards stand equally high, and a phone row never leaves one alone.
  const heights = (await page.evaluate(
    js`[...document.querySelectorAll('.hero__strip .compare')].map((c) => Math.round(c.getBoundingClientRect().height))`,
  )) as number[];
  check(heights.length === 3 && new Set(heights).size === 1, `the strip's cards are ${heights.join(', ')} px high`);
  await page.setViewportSize({ width: 390, height: 844 });
  const shown = js`[...document.querySelectorAll('.hero__strip > li')].filter((li) => li.getBoundingClientRect().height > 0).length`;
  await page.waitForFunction(`${shown} === 2`);
  await ctx.screenshot(page, 'home-examples-390');
  // A 2x screen gets the 2x files on the landing pages, so the pair is as sharp as the screen.
  const retina = await ctx.newPage({ deviceScaleFactor: 2 });
  await retina.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  for (const [path, name] of [
    ['/remove-background', 'chelsea'],
    ['/upscale-image', 'motorcycle'],
  ]) {
    await retina.goto(path!);
    await retina.locator('[data-testid="compare"] img').first().waitFor();
    await retina.waitForFunction(
      `[...document.querySelectorAll('[data-testid="compare"] img')].every((i) => i.complete && i.naturalWidth > 0)`,
    );
    const loaded = (await retina.evaluate(
      js`[...document.querySelectorAll('[data-testid="compare"] img')].map((i) => new URL(i.currentSrc).pathname)`,
    )) as string[];
    check(
      loaded.sort().join() === `/examples/made/${name}-after-1152.webp,/examples/made/${name}-before-1152.webp`,
      `${path} at 2x loads ${loaded.join(', ')}`,
    );
    await ctx.screenshot(retina, `landing${path!.replace(/\//g, '-')}-1280-2x`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/generate-image');
  await page.getByTestId('example-prompt').waitFor();
  check((await page.locator('.landing img').count()) === 0, 'the generation landing page shows a picture');
  await ctx.screenshot(page, 'landing-generate-image-1280');
});

test('phone: upload zone first, several files (a batch with its price), paste and drop anywhere; run scrolls to progress and result; history and projects', async ({
  ctx,
  workers,
}) => {
  const page = await userPage(ctx, 'phone', 390);
  await allToolsWorker(workers, page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/services/remove-background');
  const zone = (await page.getByTestId('upload-zone').boundingBox())!;
  const canvas = (await page.getByTestId('tool-canvas').boundingBox())!;
  check(zone.y < canvas.y, `on a phone the upload zone (y ${zone.y}) is not above the canvas (y ${canvas.y})`);
  await ctx.screenshot(page, 'phone-remove-background-empty-390');
  // Several files make a batch, priced before it runs.
  const first = await smallPhoto('coffee', 200);
  const second = await smallPhoto('chelsea', 200);
  await page.getByLabel('Image', { exact: true }).setInputFiles([first, second]);
  await page.getByTestId('batch-price').filter({ hasText: '2 images x 1 token = 2 tokens' }).waitFor();
  await page.getByRole('button', { name: 'Process 2 images - 2 tokens' }).waitFor();
  await page.getByTestId('batch-choice-item').nth(1).waitFor();
  await ctx.screenshot(page, 'phone-several-files-batch-390');
  // Paste from the clipboard, and a drop anywhere on the page.
  const bytes = fs.readFileSync(second).toString('base64');
  const fire = (kind: 'paste' | 'drop', name: string) =>
    page.evaluate(js`(() => {
          const data = Uint8Array.from(atob('${bytes}'), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([data], '${name}', { type: 'image/png' }));
          const event = '${kind}' === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
            : new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
          (document.querySelector('footer') ?? document.body).dispatchEvent(event);
        })()`);
  await fire('paste', 'pasted.png');
  await page.getByText(/pasted\.png - 200 x \d+ px/).waitFor();
  check((await page.getByTestId('batch-choice').count()) === 0, 'a single pasted image still shows the batch');
  await fire('drop', 'dropped.png');
  await page.getByText(/dropped\.png - 200 x \d+ px/).waitFor();
  await page.evaluate('window.scrollTo(0, 0)');
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  // The canvas (progress, then the result) is brought into view.
  await page.waitForFunction(
    `Math.abs(document.querySelector('[data-testid="tool-canvas"]').getBoundingClientRect().top) < 200`,
    undefined,
    { timeout: 10_000 },
  );
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    `Math.abs(document.querySelector('[data-testid="tool-canvas"]').getBoundingClientRect().top) < 200`,
  );
  await ctx.screenshot(page, 'phone-remove-background-result-390');

  // History: thumbnail, time of day, open and download links while the files are kept.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/account/request-history');
  const row = page.getByTestId('history-row').first();
  await row.locator('img').waitFor();
  await page.waitForFunction(`document.querySelector('[data-testid="history-row"] img')?.naturalWidth > 0`);
  check(/\d{1,2}:\d{2}/.test((await row.textContent()) ?? ''), 'the history row shows no time of day');
  check(
    (await row.getByRole('link', { name: 'Download' }).getAttribute('download')) === 'dropped-no-background.png',
    'the history download is not named after the input',
  );
  await ctx.screenshot(page, 'history-thumbnails-1280');
  await row.getByRole('link', { name: 'Open' }).click();
  await page.waitForURL((url) => url.pathname === '/services/remove-background' && url.searchParams.has('job'));
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor();

  // Projects: the input's name, and deleting asks in the page.
  await page.goto('/account/my-projects');
  const card = page.getByTestId('project-card').first();
  await card.getByTestId('project-input-name').filter({ hasText: 'dropped.png' }).waitFor();
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs += 1;
    void d.dismiss();
  });
  await card.getByRole('button', { name: /^Delete/ }).click();
  const ask = page.getByRole('dialog', { name: 'Delete this project?' });
  await ask.waitFor();
  await ctx.screenshot(page, 'projects-delete-dialog-1280');
  await ask.getByRole('button', { name: 'Keep it' }).click();
  await ask.waitFor({ state: 'hidden' });
  const before = await page.getByTestId('project-card').count();
  await card.getByRole('button', { name: /^Delete/ }).click();
  await ask.getByRole('button', { name: 'Delete' }).click();
  await page.waitForFunction(`document.querySelectorAll('[data-testid="project-card"]').length === ${before - 1}`);
  check(dialogs === 0, 'the browser confirm() was used');
});

test('the zoom lens follows a finger, pinches to zoom and works from the keyboard', async ({ ctx, workers }) => {
  const page = await userPage(ctx, 'lens', 390);
  await allToolsWorker(workers, page);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByText(/coffee-96\.png/).waitFor();
  await page.getByRole('button', { name: 'Upscale - 1 token' }).click();
  await page.getByRole('button', { name: 'Zoom lens' }).click({ timeout: 120_000 });
  const frame = page.getByTestId('zoom-lens');
  const box = (await frame.boundingBox())!;
  const touch = (type: string, id: number, x: number, y: number) =>
    frame.dispatchEvent(type, {
      pointerId: id,
      pointerType: 'touch',
      isPrimary: id === 1,
      clientX: box.x + x,
      clientY: box.y + y,
      bubbles: true,
    });
  await touch('pointerdown', 1, box.width * 0.3, box.height * 0.5);
  await touch('pointermove', 1, box.width * 0.5, box.height * 0.5);
  await page.locator('.zoom__lens').waitFor();
  const zoomBefore = Number(await page.locator('.zoom__lens').getAttribute('data-zoom'));
  await touch('pointerdown', 2, box.width * 0.6, box.height * 0.5);
  await touch('pointermove', 2, box.width * 0.9, box.height * 0.5);
  const pinched = Number(await page.locator('.zoom__lens').getAttribute('data-zoom'));
  check(pinched > zoomBefore, `pinching out left the zoom at ${pinched} (was ${zoomBefore})`);
  await touch('pointerup', 2, box.width * 0.9, box.height * 0.5);
  await touch('pointerup', 1, box.width * 0.5, box.height * 0.5);
  await ctx.screenshot(page, 'lens-touch-390');
  await frame.focus();
  const keyStart = Number(await page.locator('.zoom__lens').getAttribute('data-zoom'));
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  check(Number(await page.locator('.zoom__lens').getAttribute('data-zoom')) > keyStart, 'the + key did not zoom in');
  await page.getByTestId('lens-hint').waitFor();
});
