import fs from 'node:fs/promises';
import sharp from 'sharp';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, smallPhoto } from '../lib/tools';
import { deductWithCli, signIn, signedInPage, verifiedAccount } from '../lib/users';

/** CPU inference on a shared machine: two small images, one after another. */
const BATCH_MS = 240_000;

test('history and projects show small WebP previews, never the full-size result; batch rows name their files; the table stays in its column', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'thumbs');
  await allToolsWorker(workers, page);
  // Every picture the batch page and the lists load, by path: previews live under thumbs/, results beside them.
  const images: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'image') images.push(new URL(req.url()).pathname);
  });
  await page.goto('/services/remove-background');
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles([await smallPhoto('coffee', 150), await smallPhoto('chelsea', 150)]);
  await page.getByRole('button', { name: 'Process 2 images - 2 tokens' }).click();
  await page.locator('[data-testid="batch-view"][data-status="succeeded"]').waitFor({ timeout: BATCH_MS });

  await page.goto('/account/request-history');
  const group = page.getByTestId('history-batch').first();
  await group.getByRole('button', { name: 'Show the images' }).click();
  const names = group.getByTestId('history-input-name');
  await names.nth(1).waitFor();
  check(
    JSON.stringify((await names.allTextContents()).sort()) === JSON.stringify(['chelsea-150.png', 'coffee-150.png']),
    `the batch rows name ${(await names.allTextContents()).join(', ')}`,
  );
  await page.waitForFunction(
    `[...document.querySelectorAll('.history-table__thumb img')].length === 3 && [...document.querySelectorAll('.history-table__thumb img')].every((i) => i.complete && i.naturalWidth > 0)`,
  );
  const sizes = await page.evaluate(`[...document.querySelectorAll('.history-table__thumb img')].map((i) => {
      const box = i.getBoundingClientRect();
      return [Math.round(box.width), Math.round(box.height), i.naturalWidth];
    })`);
  check(
    (sizes as number[][]).every(([w, h, natural]) => w === 48 && h === 48 && natural! <= 256),
    `history previews are ${JSON.stringify(sizes)} (shown w, h, natural width)`,
  );
  // The table fits its column: no sideways scrolling inside it (which would hide the previews or the links).
  const edges = (await page.evaluate(`(() => {
      const wrap = document.querySelector('.history-table-wrap');
      const table = wrap.getBoundingClientRect();
      const column = document.querySelector('.account__content').getBoundingClientRect();
      return [table.right, column.right, document.documentElement.scrollWidth, window.innerWidth, wrap.scrollWidth, wrap.clientWidth];
    })()`)) as number[];
  check(
    edges[0]! <= edges[1]! + 1 && edges[2]! <= edges[3]! && edges[4]! <= edges[5]!,
    `the history table leaves its column (right, column right, page width, window, table width, room): ${edges}`,
  );
  await ctx.screenshot(page, 'history-previews-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  const phone = (await page.evaluate(`[document.documentElement.scrollWidth, window.innerWidth]`)) as number[];
  check(phone[0]! <= phone[1]!, `on a phone the history page scrolls sideways: ${phone}`);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/account/my-projects');
  await page.waitForFunction(
    `[...document.querySelectorAll('[data-testid="project-card"] img')].filter((i) => i.complete && i.naturalWidth > 0).length === 2`,
  );
  const full = images.filter((p) => /\/results\/[^/]+\/[^/]+\/\d+\.\w+$/.test(p));
  const previews = images.filter((p) => /\/results\/.*\/thumbs\/\d+\.webp$/.test(p));
  check(full.length === 0, `the batch page or the lists downloaded full-size results: ${full.join(', ')}`);
  check(previews.length >= 2, `the lists loaded no previews: ${images.join(', ')}`);
  await ctx.screenshot(page, 'projects-previews-1280');

  // Opened from projects, the comparison frame has the result's shape, so its checkerboard shows only through the
  // cut-out's transparent pixels, with no band around the picture.
  await page.getByTestId('project-card').first().getByRole('link', { name: 'Open' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor();
  await page.waitForFunction(`document.querySelector('[data-testid="compare-after"]')?.naturalWidth > 0`);
  const fit = (await page.evaluate(`(() => {
      const frame = document.querySelector('[data-testid="compare"]');
      const after = document.querySelector('[data-testid="compare-after"]');
      const box = frame.getBoundingClientRect();
      const shown = after.getBoundingClientRect();
      return {
        frame: box.width / box.height,
        image: after.naturalWidth / after.naturalHeight,
        covers: Math.abs(shown.width - box.width) < 1 && Math.abs(shown.height - box.height) < 1,
      };
    })()`)) as { frame: number; image: number; covers: boolean };
  check(
    Math.abs(fit.frame / fit.image - 1) < 0.02 && fit.covers,
    `the comparison frame is not the result's shape: ${JSON.stringify(fit)}`,
  );
  // A short window caps the frame by height: still no band beside the picture.
  await page.setViewportSize({ width: 1280, height: 500 });
  const short = (await page.evaluate(`(() => {
      const box = document.querySelector('[data-testid="compare"]').getBoundingClientRect();
      const after = document.querySelector('[data-testid="compare-after"]');
      return [box.width / box.height, after.naturalWidth / after.naturalHeight];
    })()`)) as number[];
  check(
    Math.abs(short[0]! / short[1]! - 1) < 0.02,
    `in a short window the frame is ${short[0]}, the result ${short[1]}`,
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await ctx.screenshot(page, 'compare-result-shape-1280');
});

test('a job opened again after a reload shows its options and runs again from its stored input, charged as a new job', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'rerun');
  await allToolsWorker(workers, page);
  await page.goto('/services/remove-background');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 120));
  await page.getByLabel('Output format').selectOption('webp');
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: 120_000 });
  await page.waitForURL((url) => url.searchParams.has('job'));
  const firstJob = new URL(page.url()).searchParams.get('job');
  await expectHeaderBalance(page, '9', 'balance after the first run');

  // A reload forgets the chosen file: the job comes back from the URL with its own options.
  await page.reload();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor();
  check((await page.getByLabel('Output format').inputValue()) === 'webp', 'the reloaded job shows the default format');
  const again = page.getByRole('button', { name: 'Run again - 1 token' });
  check(await again.isEnabled(), 'Run again is not ready without choosing the file again');
  await again.click();
  await page.waitForURL((url) => url.searchParams.get('job') !== firstJob);
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: 120_000 });
  await expectHeaderBalance(page, '8', 'balance after running again');
  const download = page
    .getByTestId('tool-canvas')
    .getByRole('link', { name: /Download/ })
    .first();
  check(
    ((await download.getAttribute('download')) ?? '').endsWith('.webp'),
    `the re-run's result is not WebP: ${await download.getAttribute('download')}`,
  );
  await ctx.screenshot(page, 'rerun-from-stored-input-1280');
});

test('a picture made in the editor is kept: Projects and History list it with its preview, and it downloads again for free', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'kept');
  await allToolsWorker(workers, page);
  await page.goto('/services/remove-background');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 120));
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: 120_000 });
  // The editor's own starting layout: a white 2000 px square JPEG.
  const editor = page.getByTestId('photo-editor');
  await Promise.all([
    // A full-size render, behind the editor's own preview renders on a busy 2-core machine.
    page.waitForResponse((r) => /\/api\/jobs\/[^/]+\/compose$/.test(r.url()) && r.status() === 201, {
      timeout: 60_000,
    }),
    page.waitForEvent('download', { timeout: 60_000 }),
    editor.getByRole('button', { name: 'Download - free' }).click(),
  ]);
  await expectHeaderBalance(page, '9', 'the editor download charged tokens');

  const images: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'image') images.push(new URL(req.url()).pathname);
  });
  /** The kept picture in a list: its preview loads small, it says what it is, and its link downloads it again. */
  const downloadsAgain = async (where: string) => {
    const list = page.getByTestId('compositions').first();
    await list.getByTestId('composition').first().waitFor();
    await page.waitForFunction(
      `[...document.querySelectorAll('[data-testid="composition"] img')].some((i) => i.complete && i.naturalWidth > 0)`,
    );
    const natural = (await page.evaluate(
      `document.querySelector('[data-testid="compositions"] [data-testid="composition"] img').naturalWidth`,
    )) as number;
    check(natural > 0 && natural <= 256, `${where}: the picture's preview is ${natural} px wide`);
    const text = (await list.textContent()) ?? '';
    check(
      /Finished pictures \(1\)/.test(text) && /JPEG · 2000 × 2000 px · [\d.]+ (kB|MB)/.test(text),
      `${where} says ${text}`,
    );
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      list.getByRole('link', { name: 'Download the JPEG picture, 2000 × 2000 px' }).click(),
    ]);
    check(
      file.suggestedFilename() === 'coffee-120-no-background-2000x2000.jpg',
      `${where}: the picture downloads as ${file.suggestedFilename()}`,
    );
    const meta = await sharp(await fs.readFile(await file.path())).metadata();
    check(
      meta.format === 'jpeg' && meta.width === 2000 && meta.height === 2000,
      `${where}: the download is ${meta.format} ${meta.width} x ${meta.height}`,
    );
  };

  await page.goto('/account/my-projects');
  await downloadsAgain('My Projects');
  await ctx.screenshot(page, 'projects-kept-picture-1280');
  await page.goto('/account/request-history');
  await downloadsAgain('Request History');
  await ctx.screenshot(page, 'history-kept-picture-1280');
  // The lists showed the pictures' previews, never the 2000 px files; downloading again cost nothing.
  const previews = images.filter((p) => /\/compositions\/[^/]+\.jpg\.thumb\.webp$/.test(p));
  const full = images.filter((p) => /\/compositions\/[^/]+\.jpg$/.test(p));
  check(previews.length >= 2 && full.length === 0, `the lists loaded ${images.join(', ')}`);
  await expectHeaderBalance(page, '9', 'downloading a kept picture again charged tokens');
});

test('out of tokens in a tool: Buy -> pay in the test checkout -> back to the tool with the chosen images and the run ready', async ({
  ctx,
  workers,
}) => {
  const page = await ctx.newPage();
  const email = await verifiedAccount(ctx, page, 'buyback');
  await deductWithCli(email, 10);
  await signIn(page, email);
  await allToolsWorker(workers, page);
  await page.goto('/services/remove-background');
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles([await smallPhoto('coffee', 110), await smallPhoto('chelsea', 110)]);
  await page.getByTestId('batch-choice-item').nth(1).waitFor();
  const run = page.getByRole('button', { name: 'Process 2 images - 2 tokens' });
  check(await run.isDisabled(), 'the run button is ready without tokens');
  await page.getByTestId('not-enough-tokens').waitFor();
  await ctx.screenshot(page, 'tool-out-of-tokens-1280');
  await page.getByTestId('buy-offer').click();

  // The test checkout, as a customer pays.
  const buy = page.getByRole('dialog', { name: 'Buy Tokens' });
  await buy.waitFor();
  await buy.getByRole('checkbox').check();
  await buy.getByRole('button', { name: 'Credit/Debit card' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Information' });
  await confirm.waitFor();
  await confirm.locator('select[name="country"]').selectOption({ label: 'Germany' });
  await confirm.getByLabel('City').fill('Berlin');
  await confirm.getByLabel('Address').fill('Friedrichstraße 1');
  await confirm.getByLabel('Post Code').fill('10117');
  await confirm.getByRole('button', { name: /confirm payment/i }).click();
  await page.waitForURL((url) => url.pathname === '/api/deposit/test-checkout' && url.searchParams.has('order'));
  await page.locator('button[data-outcome="paid"]').click();
  await page.waitForURL((url) => url.pathname === '/success-payment' && url.searchParams.has('order'));

  // The success page offers the way back to the tool, and the tool has the two images again.
  const back = page.getByRole('link', { name: 'Back to Remove background' });
  await back.waitFor();
  await ctx.screenshot(page, 'payment-success-back-to-tool-1280');
  await back.click();
  await page.waitForURL((url) => url.pathname === '/services/remove-background');
  await page.getByTestId('batch-choice-item').nth(1).waitFor();
  check((await page.getByTestId('batch-choice-item').count()) === 2, 'the two chosen images did not come back');
  await page.waitForFunction(
    `[...document.querySelectorAll('button')].some((b) => b.textContent === 'Process 2 images - 2 tokens' && !b.disabled)`,
  );
  check((await page.getByTestId('not-enough-tokens').count()) === 0, 'the out-of-tokens notice stays after paying');
  check(!new URL(page.url()).searchParams.has('restore'), 'the URL keeps asking to restore the selection');
  await ctx.screenshot(page, 'tool-back-from-checkout-1280');
});
