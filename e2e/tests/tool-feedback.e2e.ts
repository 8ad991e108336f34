import path from 'node:path';
import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check, type E2EContext } from '../lib/harness';
import { shots, smallPhoto, startBusyUpscale, waitForTool } from '../lib/tools';
import { deductWithCli, signIn, verifiedAccount } from '../lib/users';

/** CPU inference on a shared machine: allow a generous wait for a job to end. */
const JOB_MS = 120_000;
const js = String.raw;

/** A verified, signed-in customer (10 free tokens) at 1280 x 800, the window the tool pages were walked at; their email. */
async function customer(ctx: E2EContext, tag: string): Promise<{ page: Page; email: string }> {
  const page = await ctx.newPage({ width: 1280, height: 800 });
  const email = await verifiedAccount(ctx, page, tag);
  await page.context().addCookies([{ name: 'cookie_consent', value: 'true', url: ctx.baseUrl }]);
  await signIn(page, email);
  return { page, email };
}

/** What has the keyboard focus: its test id, else its tag and text. */
function focused(page: Page): Promise<string> {
  return page.locator('body').evaluate((body) => {
    const el = body.ownerDocument.activeElement;
    if (!el || el === body) return 'body';
    return (
      el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 40)}`
    );
  });
}

/** Presses Tab until the control labelled `label` has the focus (at most 40 times). */
async function tabTo(page: Page, label: string): Promise<void> {
  const target = page.getByLabel(label, { exact: true });
  for (let i = 0; i < 40; i += 1) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${label}`);
}

/** The element a pointer at the centre of `label`'s control would hit: the control itself unless something covers it. */
async function uncovered(page: Page, label: string): Promise<string | null> {
  return page.getByLabel(label, { exact: true }).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit === el || (hit !== null && el.contains(hit))) return null;
    return hit ? `${hit.tagName.toLowerCase()} "${(hit.textContent ?? '').trim().slice(0, 40)}"` : 'nothing';
  });
}

/** The live regions of the page that say `text` (a status or alert role, or aria-live other than off). */
function liveRegionsSaying(page: Page, text: string): Promise<number> {
  return page.locator('body').evaluate((body, wanted) => {
    const live = [...body.querySelectorAll('[role="status"], [role="alert"], [aria-live]')].filter(
      (el) => el.getAttribute('aria-live') !== 'off',
    );
    // A region inside another live region is read by both.
    return live.filter((el) => (el.textContent ?? '').includes(wanted)).length;
  }, text);
}

test('at 1280 x 800 the sticky run panel covers no option the keyboard reaches', async ({ ctx, workers }) => {
  const { page } = await customer(ctx, 'sticky');
  // The options show while a worker offers the tool.
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByText(/coffee-96\.png/).waitFor();
  await page.getByRole('heading', { level: 1 }).focus();
  // Tab enters the model group on its checked radio.
  for (const label of ['Photo - removes compression blocks and noise', 'Factor', 'Output format']) {
    await tabTo(page, label);
    const cover = await uncovered(page, label);
    check(cover === null, `${label} has the focus under ${cover}`);
  }
  await ctx.screenshot(page, 'tool-upscale-format-in-sight-1280');
});

test('a finished upscale takes the keyboard focus to its result\'s heading and says "Done" once', async ({
  ctx,
  workers,
}) => {
  const { page } = await customer(ctx, 'focus');
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByText(/coffee-96\.png/).waitFor();
  const format = page.getByLabel('Output format');
  await format.focus();
  await page.keyboard.press('ArrowDown');
  check((await format.inputValue()) === 'webp', 'the keyboard did not choose WebP');
  await page.getByRole('button', { name: 'Upscale - 1 token' }).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('result').waitFor({ timeout: JOB_MS });
  await page.waitForTimeout(300);
  check((await focused(page)) === 'result-heading', `the focus is on ${await focused(page)} when the job is done`);
  const heading = page.getByTestId('result-heading');
  check((await heading.textContent()) === 'Result', `the result's heading reads ${await heading.textContent()}`);
  const said = await page.getByTestId('tool-announcement').textContent();
  check(said === 'Done', `the status line says "${said}"`);
  check((await liveRegionsSaying(page, 'Done')) === 1, 'Done is said by more than one live region');
  check(
    (await page.getByTestId('tool-canvas').getAttribute('aria-live')) === null,
    'the whole canvas is still a live region',
  );
  // The next Tab stays in the result (its view switch), before "Start over", the footer and the header.
  await page.keyboard.press('Tab');
  const next = await focused(page);
  check(
    await page.getByTestId('result').evaluate((el) => el.contains(el.ownerDocument.activeElement)),
    `Tab after the result's heading went to ${next}`,
  );
  await ctx.screenshot(page, 'tool-upscale-result-focus-1280');
  // Back to the options with the keyboard: the last one is not under "Run again".
  await heading.focus();
  await tabTo(page, 'Output format');
  const cover = await uncovered(page, 'Output format');
  check(cover === null, `after the result Output format is under ${cover}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await ctx.screenshot(page, 'tool-upscale-result-focus-390');
});

test('Cancel says "Cancelling..." at once and stays disabled, then one message with the refund takes the focus', async ({
  ctx,
  workers,
}) => {
  const { page } = await customer(ctx, 'cancel');
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  const busyId = await startBusyUpscale(page);
  await page.goto(`/services/upscale?job=${busyId}`);
  await page
    .getByTestId('job-stage')
    .filter({ hasText: /^Processing tile \d+ of \d+$/ })
    .waitFor({ timeout: JOB_MS });
  const cancel = page.getByTestId('job-status').getByRole('button', { name: 'Cancel', exact: true });
  await cancel.focus();
  await page.keyboard.press('Enter');
  // At once, and for as long as the worker takes to stop: no "Cancel" to press again, no time left.
  const cancelling = page.getByTestId('job-status').getByRole('button', { name: 'Cancelling...', exact: true });
  await cancelling.waitFor({ timeout: 1000 });
  check(await cancelling.isDisabled(), 'the Cancelling... button can be pressed');
  check((await page.getByTestId('job-time-left').count()) === 0, 'a cancelling job still says how long it has left');
  check(
    (await page.getByTestId('tool-announcement').textContent()) === 'Cancelling...',
    'the status line does not say Cancelling...',
  );
  // A quick picture (axe runs on the cancelled state below: the job must not end first).
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'tool-upscale-cancelling-1280.png') });
  const ended = page.getByTestId('job-ended-message');
  // Every half second until the job ends: never back to a running job with Cancel enabled.
  const deadline = Date.now() + JOB_MS;
  while ((await ended.count()) === 0) {
    check(Date.now() < deadline, 'the cancelled job did not end');
    const status = await page.getByTestId('job-status').getAttribute('data-status');
    if (status === 'running' || status === 'queued') {
      check((await cancel.count()) === 0, 'Cancel came back while the job was being cancelled');
    }
    await page.waitForTimeout(500);
  }
  const message = 'Cancelled. Your tokens have been refunded.';
  await ended.filter({ hasText: message }).waitFor();
  await page.waitForFunction(js`document.activeElement?.getAttribute('data-testid') === 'job-ended-message'`);
  check((await page.getByTestId('tool-announcement').textContent()) === message, 'the status line lacks the refund');
  check((await liveRegionsSaying(page, 'refunded')) === 1, 'the refund is said by more than one live region');
  check(
    (await page.getByText(message).and(page.locator(':not(.visually-hidden)')).count()) === 1,
    'the cancel message shows more than once',
  );
  await shots(ctx, page, 'tool-upscale-cancel-feedback');
});

test('out of tokens: "Buy N tokens" keeps the options with the photo, and the way back restores them', async ({
  ctx,
  workers,
}) => {
  const { page, email } = await customer(ctx, 'keepopts');
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  await deductWithCli(email, 10);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByText(/coffee-96\.png/).waitFor();
  await page.getByLabel('Illustration - clean lines for drawings and anime').check();
  await page.getByLabel('Factor').selectOption('4');
  await page.getByLabel('Output format').selectOption('webp');
  const buy = page.getByTestId('buy-offer');
  await buy.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/pricing');
  // The selection is written to IndexedDB as the link is followed; the way back reads it from there.
  await page.waitForFunction(js`new Promise((resolve) => {
    const open = indexedDB.open('imagestudio');
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('checkout-return')) return resolve(false);
      const get = db.transaction('checkout-return').objectStore('checkout-return').get('checkout-return');
      get.onsuccess = () => resolve(get.result !== undefined);
      get.onerror = () => resolve(false);
    };
  })`);
  // The success page's link back to the tool.
  await page.goto('/services/upscale?restore=1');
  await page.getByText(/coffee-96\.png/).waitFor();
  const format = page.getByLabel('Output format');
  const deadline = Date.now() + 5000;
  while ((await format.inputValue()) !== 'webp' && Date.now() < deadline) await page.waitForTimeout(100);
  check((await format.inputValue()) === 'webp', `Output format came back as ${await format.inputValue()}`);
  check((await page.getByLabel('Factor').inputValue()) === '4', 'the factor did not come back');
  check(
    await page.getByLabel('Illustration - clean lines for drawings and anime').isChecked(),
    'the model did not come back',
  );
  await ctx.screenshot(page, 'tool-upscale-options-back-from-checkout-1280');
});

test("background removal offers the editor's formats before a run, and an AVIF cut-out comes out as AVIF", async ({
  ctx,
  workers,
}) => {
  const { page } = await customer(ctx, 'formats');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  const before = page.getByLabel('Output format');
  await before.waitFor();
  const offered = await before.locator('option').allTextContents();
  check(offered.join(',') === 'PNG,WebP,AVIF,JPEG', `the options before a run offer ${offered.join(', ')}`);
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 120));
  await page.getByText(/coffee-120\.png/).waitFor();
  await before.focus();
  await before.selectOption('avif');
  await page.getByRole('button', { name: /^Remove background - / }).click();
  await page.getByTestId('result-heading').waitFor({ timeout: JOB_MS });
  const jobId = new URL(page.url()).searchParams.get('job');
  const job = (await (await page.context().request.get(`/api/jobs/${jobId}`)).json()) as {
    payload: { results: { format: string }[] };
  };
  check(job.payload.results[0]?.format === 'avif', `the cut-out came out as ${job.payload.results[0]?.format}`);
  const editor = page.getByTestId('photo-editor').getByLabel('Format', { exact: true });
  await editor.waitFor();
  const inEditor = await editor.locator('option').allTextContents();
  check(
    inEditor.join(',') === offered.join(','),
    `the editor offers ${inEditor.join(', ')}, the options ${offered.join(', ')}`,
  );
  await ctx.screenshot(page, 'tool-remove-background-avif-1280');
});
