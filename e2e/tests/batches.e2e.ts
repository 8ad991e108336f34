import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, shots, smallPhoto, startBusyUpscale } from '../lib/tools';
import { signedInPage, xsrfToken } from '../lib/users';

/** CPU inference on a shared machine: three small images, one after another. */
const BATCH_MS = 240_000;

/** The entry names of a ZIP file. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A ZIP of `files` (stored under their base names) written next to them. */
function zipOf(files: string[], out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const file of files) zip.addFile(file, path.basename(file));
    zip.outputStream
      .pipe(fs.createWriteStream(out))
      .on('close', () => resolve(out))
      .on('error', reject);
    zip.end();
  });
}

/** Batches in the browser with the real worker: several photos at once, one price, one ZIP. */
test('three photos make a batch: priced first, each item live in the grid, one ZIP with every result, grouped in history', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'batch');
  await allToolsWorker(workers, page);
  await page.goto('/services/remove-background');
  const photos = [
    await smallPhoto('coffee', 160),
    await smallPhoto('chelsea', 160),
    await smallPhoto('motorcycle_left', 160),
  ];

  // A ZIP of two of them is counted in the browser from its directory and priced the same way.
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles(await zipOf(photos.slice(0, 2), path.join(path.dirname(photos[0]!), 'two-photos.zip')));
  await page.getByTestId('batch-price').filter({ hasText: '2 images x 1 token = 2 tokens' }).waitFor();
  await page.getByText('two-photos.zip - 2 images').waitFor();

  await page.getByLabel('Image', { exact: true }).setInputFiles(photos);
  await page.getByTestId('batch-price').filter({ hasText: '3 images x 1 token = 3 tokens' }).waitFor();
  // The price counts the chosen files at once; each is listed once its check in the browser is done.
  await page.getByTestId('batch-choice-item').nth(2).waitFor();
  check((await page.getByTestId('batch-choice-item').count()) === 3, 'the three chosen photos are not listed');
  await shots(ctx, page, 'batch-chosen');
  await page.getByRole('button', { name: 'Process 3 images - 3 tokens' }).click();

  const view = page.getByTestId('batch-view');
  await view.waitFor({ timeout: 60_000 });
  await page.waitForURL((url) => url.searchParams.has('batch'));
  // Charged for all three on accept.
  await page.waitForFunction(`document.querySelector('[data-testid="balance"] strong')?.textContent === '7'`);
  await ctx.screenshot(page, 'batch-running-1280');
  await page.locator('[data-testid="batch-view"][data-status="succeeded"]').waitFor({ timeout: BATCH_MS });
  await page.getByTestId('batch-done').filter({ hasText: '3 of 3 done' }).waitFor();
  // Every card shows its result.
  await page.waitForFunction(
    `[...document.querySelectorAll('[data-testid="batch-item"] img')].filter((i) => i.complete && i.naturalWidth > 0).length === 3`,
  );
  await expectHeaderBalance(page, '7', 'balance after the batch');
  await shots(ctx, page, 'batch-done');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-zip').click()]);
  check(/^batch-.*\.zip$/.test(download.suggestedFilename()), `the ZIP downloads as ${download.suggestedFilename()}`);
  const file = path.join(ARTIFACTS_DIR, 'batch-results.zip');
  await download.saveAs(file);
  const entries = (await zipEntries(file)).sort();
  const expected = [
    'chelsea-160-no-background.png',
    'coffee-160-no-background.png',
    'motorcycle_left-160-no-background.png',
  ];
  check(JSON.stringify(entries) === JSON.stringify(expected), `the ZIP holds ${entries.join(', ')}`);

  // A reload shows the same batch from the URL.
  await page.reload();
  await page.locator('[data-testid="batch-view"][data-status="succeeded"]').waitFor();

  // History groups the batch under one row that opens it.
  await page.goto('/account/request-history');
  const group = page.getByTestId('history-batch').first();
  await group.getByText('Batch of 3 images').waitFor();
  await group.getByRole('button', { name: 'Show the images' }).click();
  await page.waitForFunction(
    `document.querySelectorAll('[data-testid="history-batch"] [data-testid="history-row"]').length === 3`,
  );
  await ctx.screenshot(page, 'batch-history-1280');
  await group.getByRole('link', { name: 'Open batch' }).click();
  await page.waitForURL((url) => url.pathname === '/services/remove-background' && url.searchParams.has('batch'));
  await page.getByTestId('batch-view').waitFor();

  // In German, through the strings table.
  const batchUrl = page.url();
  await page.goto('/');
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).first().waitFor();
  await page.goto(batchUrl);
  await page.getByTestId('batch-done').filter({ hasText: '3 von 3 fertig' }).waitFor();
  await page.getByTestId('batch-zip').filter({ hasText: 'Alle herunterladen (ZIP)' }).waitFor();
  await ctx.screenshot(page, 'batch-done-de-1280');
});
test('cancel all refunds every item; retrying a cancelled item asks first, charges one token and runs it', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'batch-cancel');
  await allToolsWorker(workers, page);
  // A long upscale keeps the single worker busy, so the batch's items wait in the queue.
  const busyId = await startBusyUpscale(page);
  const xsrf = await xsrfToken(page);

  await page.goto('/services/remove-background');
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles([await smallPhoto('coffee', 120), await smallPhoto('chelsea', 120)]);
  await page.getByRole('button', { name: 'Process 2 images - 2 tokens' }).click();
  await page.getByTestId('batch-view').waitFor({ timeout: 60_000 });
  await page.waitForFunction(`document.querySelector('[data-testid="balance"] strong')?.textContent === '7'`);
  await page.getByTestId('batch-cancel').click();
  await page.locator('[data-testid="batch-view"][data-status="cancelled"]').waitFor({ timeout: 60_000 });
  await page.getByText('2 tokens refunded for images that did not finish.').waitFor();
  await page.waitForFunction(`document.querySelector('[data-testid="balance"] strong')?.textContent === '9'`);
  check((await page.getByTestId('batch-zip').count()) === 0, 'a batch without results offers a ZIP');
  await ctx.screenshot(page, 'batch-cancelled-1280');

  // The worker is freed, then one item is run again.
  const cancelled = await page
    .context()
    .request.post(`/api/jobs/${busyId}/cancel`, { headers: { 'X-XSRF-TOKEN': xsrf } });
  check(cancelled.ok(), `cancelling the busy job answered ${cancelled.status()}`);
  // That refund happens away from this page: wait for it, then reload (the URL brings the batch back).
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = (await (await page.context().request.get(`/api/jobs/${busyId}`)).json()) as {
      payload: { status: string };
    };
    if (job.payload.status === 'cancelled') break;
    await page.waitForTimeout(500);
  }
  await page.reload();
  await page.locator('[data-testid="batch-view"][data-status="cancelled"]').waitFor();
  await page.waitForFunction(`document.querySelector('[data-testid="balance"] strong')?.textContent === '10'`);
  await page.getByRole('button', { name: 'Retry coffee-120.png' }).click();
  const ask = page.getByRole('dialog', { name: 'Run this image again?' });
  await ask.waitFor();
  await ctx.screenshot(page, 'batch-retry-confirm-1280');
  await ask.getByRole('button', { name: 'Retry - 1 token' }).click();
  await page.locator('[data-testid="batch-item"][data-status="succeeded"]').waitFor({ timeout: BATCH_MS });
  await page.locator('[data-testid="batch-view"][data-status="partial"]').waitFor();
  await expectHeaderBalance(page, '9', 'balance after the retry');
  await ctx.screenshot(page, 'batch-retried-1280');
});
