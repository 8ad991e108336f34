import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check } from '../lib/harness';
import { expectHeaderBalance, shots, smallPhoto, waitForTool } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** CPU inference on a shared machine: allow a generous wait for a job to finish. */
const JOB_MS = 120_000;
const PREVIEW = '[data-testid="photo-preview"]';

/**
 * The layout view's picture as the browser shows it: the bytes of the server's preview the <img> displays, once no
 * newer one is on its way (browser code as text: the e2e project has no DOM types).
 */
async function shownPreview(page: Page): Promise<Buffer> {
  await page.waitForSelector(`img${PREVIEW}[data-busy="false"]`, { timeout: 30_000 });
  const base64 = (await page.evaluate(`(async () => {
    const img = document.querySelector('img${PREVIEW}');
    const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  })()`)) as string;
  return Buffer.from(base64, 'base64');
}

/** Waits until the shown preview is `width` x `height` with the top-left pixel `corner` (RGB); returns its bytes. */
async function waitForPreview(page: Page, width: number, height: number, corner: number[]): Promise<Buffer> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const bytes = await shownPreview(page);
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    last = `${info.width} x ${info.height}, corner ${data[0]},${data[1]},${data[2]}`;
    if (info.width === width && info.height === height && corner.every((v, c) => Math.abs(data[c]! - v) <= 2))
      return bytes;
    await page.waitForTimeout(200);
  }
  throw new Error(`the preview stayed ${last}, not ${width} x ${height} with corner ${corner.join()}`);
}

/**
 * The mean absolute difference per channel between the preview and the downloaded file scaled to the preview's
 * size (lanczos3), over premultiplied RGBA: a pixel counts by what it shows.
 */
async function previewVsFile(preview: Buffer, file: Buffer): Promise<number> {
  const { data: a, info } = await sharp(preview).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(file).resize(info.width, info.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs((a[i + c]! * a[i + 3]!) / 255 - (b[i + c]! * b[i + 3]!) / 255);
    sum += Math.abs(a[i + 3]! - b[i + 3]!);
  }
  return sum / a.length;
}

/** The alpha the touch-up canvas shows at a point given as fractions of its size. */
async function touchUpAlpha(page: Page, fx: number, fy: number): Promise<number> {
  return (await page.evaluate(`(() => {
    const c = document.querySelector('${PREVIEW}');
    const x = Math.floor(c.width * ${fx});
    const y = Math.floor(c.height * ${fy});
    return c.getContext('2d').getImageData(x, y, 1, 1).data[3];
  })()`)) as number;
}

/**
 * The touch-up canvas's alpha at (fx, fy) once it meets `ok`, or its last value after 3 s: a stroke is drawn on the
 * next animation frame, so a read straight after the mouse is released can still see the frame before it.
 */
async function alphaOnceDrawn(page: Page, fx: number, fy: number, ok: (alpha: number) => boolean): Promise<number> {
  const until = Date.now() + 3000;
  for (;;) {
    const alpha = await touchUpAlpha(page, fx, fy);
    if (ok(alpha) || Date.now() > until) return alpha;
    await page.waitForTimeout(50);
  }
}

/** Whether the touch-up canvas's alpha at (fx, fy) meets `ok` once drawn (see alphaOnceDrawn). */
async function drawnAlphaIs(page: Page, fx: number, fy: number, ok: (alpha: number) => boolean): Promise<boolean> {
  return ok(await alphaOnceDrawn(page, fx, fy, ok));
}

/**
 * Scrolls the touch-up canvas to the middle of the window: after a click lower on the page (Undo) the page can rest
 * with the canvas under the sticky site header, where a stroke would land on the header instead.
 */
async function centreCanvas(page: Page): Promise<void> {
  await page.locator(PREVIEW).evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
}

/** A horizontal brush stroke through (fx, fy), in fractions of the canvas on screen. */
async function brushStroke(page: Page, fx: number, fy: number): Promise<void> {
  await centreCanvas(page);
  const box = (await page.locator(PREVIEW).boundingBox())!;
  const y = box.y + box.height * fy;
  await page.mouse.move(box.x + box.width * (fx - 0.08), y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width * (fx - 0.08 + i * 0.02), y);
  await page.mouse.up();
}

/** The same stroke by a finger: touch events (Chromium's touch emulation) become pointer events of type touch. */
async function touchStroke(page: Page, fx: number, fy: number): Promise<void> {
  await centreCanvas(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const box = (await page.locator(PREVIEW).boundingBox())!;
  const at = (f: number) => [{ x: box.x + box.width * f, y: box.y + box.height * fy }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(fx - 0.08) });
  for (let i = 1; i <= 8; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(fx - 0.08 + i * 0.02) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
  await cdp.detach();
}

/**
 * The editor with the real worker and API: its preview is drawn from the job's `compose_sources` (the stored
 * foreground and matte), and Download goes through `POST /api/jobs/{id}/compose`.
 */
test('remove background -> the editor previews changes live, touch-up and undo, download through compose is free and has the chosen size and format', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'editor');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  const photo = await smallPhoto('chelsea', 320);
  await page.getByLabel('Image', { exact: true }).setInputFiles(photo);
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: JOB_MS });
  await expectHeaderBalance(page, '9', 'balance after the job');

  // The editor starts as a marketplace picture: a white 2000 px square, previewed by the server at 1024 px.
  const editor = page.getByTestId('photo-editor');
  const white = await waitForPreview(page, 1024, 1024, [255, 255, 255]);
  const swatches = editor.getByRole('group', { name: 'Background' });
  await swatches.getByRole('button', { name: 'Black', exact: true }).click();
  const black = await waitForPreview(page, 1024, 1024, [0, 0, 0]);
  check(!black.equals(white), 'the preview did not change with the background');
  // The margin slider works from the keyboard and moves the subject: the pixels change again.
  const margin = editor.getByRole('slider', { name: 'Margin' });
  await margin.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  check((await margin.inputValue()) === '13', `the margin slider reads ${await margin.inputValue()} after 5 steps`);
  const moved = await waitForPreview(page, 1024, 1024, [0, 0, 0]);
  check(!moved.equals(black), 'the margin did not move the subject in the preview');

  // Touch up: erase a stroke through the middle of the cat, undo it, erase it again.
  await editor.getByRole('button', { name: 'Touch up' }).click();
  await page.waitForSelector(`${PREVIEW}[data-mode="touchUp"]`);
  const before = await touchUpAlpha(page, 0.5, 0.55);
  check(before === 255, `the middle of the cut-out is not opaque in the touch-up view (alpha ${before})`);
  await brushStroke(page, 0.5, 0.55);
  const erased = await alphaOnceDrawn(page, 0.5, 0.55, (a) => a < 120);
  // Erased: only the faint photo under the cut-out shows there.
  check(erased < 120, `the erased stroke still shows alpha ${erased}`);
  const undo = editor.getByRole('button', { name: 'Undo' });
  await undo.click();
  check(await drawnAlphaIs(page, 0.5, 0.55, (a) => a === 255), 'undo did not bring the erased part back');
  check(await undo.isDisabled(), 'undo stays enabled with nothing left to undo');
  await brushStroke(page, 0.5, 0.55);
  check(await drawnAlphaIs(page, 0.5, 0.55, (a) => a < 120), 'the second stroke did not erase');
  // A finger restores what the mouse erased, and erases elsewhere.
  const brush = editor.getByTestId('brush-tools');
  await brush.getByRole('button', { name: 'Restore' }).click();
  await touchStroke(page, 0.5, 0.55);
  check(await drawnAlphaIs(page, 0.5, 0.55, (a) => a === 255), 'restoring by touch did not bring the cut-out back');
  await brush.getByRole('button', { name: 'Erase' }).click();
  const solid = await touchUpAlpha(page, 0.5, 0.4);
  check(solid > 200, `the cut-out is not solid where the finger will erase (alpha ${solid})`);
  await touchStroke(page, 0.5, 0.4);
  check(await drawnAlphaIs(page, 0.5, 0.4, (a) => a < 120), 'erasing by touch left the cut-out there');
  // The keyboard: the brush starts at the middle; Space puts it down, arrows paint, Space lifts it, Ctrl+Z undoes.
  const solidMiddle = await touchUpAlpha(page, 0.5, 0.48);
  check(solidMiddle > 200, `the cut-out is not solid where the keyboard will erase (alpha ${solidMiddle})`);
  await page.locator(PREVIEW).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('[data-testid="brush-cursor"]');
  check(
    await drawnAlphaIs(page, 0.5, 0.48, (a) => a === solidMiddle),
    'moving the lifted brush with the arrow keys painted',
  );
  await page.keyboard.press('Space');
  const keyState = editor.getByTestId('brush-key-state');
  await keyState.filter({ hasText: 'Painting: move with the arrow keys, Space stops.' }).waitFor();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await ctx.screenshot(page, 'tool-remove-background-editor-keyboard-brush-1280');
  await page.keyboard.press('Space');
  await keyState.filter({ hasText: 'Brush lifted: Space starts painting.' }).waitFor();
  check(
    await drawnAlphaIs(page, 0.5, 0.48, (a) => a < 120),
    'the keyboard stroke did not erase where the brush went down',
  );
  check(
    await drawnAlphaIs(page, 0.54, 0.48, (a) => a < 120),
    'the keyboard stroke did not erase along the arrow moves',
  );
  await page.keyboard.press('Control+z');
  check(await drawnAlphaIs(page, 0.5, 0.48, (a) => a === solidMiddle), 'Ctrl+Z did not undo the keyboard stroke');
  check(await drawnAlphaIs(page, 0.5, 0.4, (a) => a < 120), 'Ctrl+Z undid more than the keyboard stroke');
  await page.keyboard.press(']');
  const size = await brush.getByRole('slider', { name: 'Brush size' }).inputValue();
  check(size === '36', `] made the brush ${size} px, not 36`);
  await page.keyboard.press('Tab');
  check((await page.locator('[data-testid="brush-cursor"]').count()) === 0, 'the brush cursor stays after focus left');
  await ctx.screenshot(page, 'tool-remove-background-editor-touch-up-1280');

  // Back to the layout: Portrait 4:5 for social, as WebP.
  await editor.getByRole('button', { name: 'Layout' }).click();
  await editor.getByLabel('Canvas').selectOption({ label: 'Portrait 4:5 - social' });
  await editor.getByLabel('Format').selectOption('webp');
  const portrait = await waitForPreview(page, 819, 1024, [0, 0, 0]);
  await shots(ctx, page, 'tool-remove-background-editor');
  // On a phone the editor fits the screen: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 780 });
  await page.waitForTimeout(200);
  const overflow = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  check(overflow <= 360, `the page is ${overflow} px wide on a 360 px phone`);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Download renders the full-size picture through compose, with the edited matte, for nothing.
  const download = editor.getByRole('button', { name: 'Download - free' });
  const [request, file] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && /\/api\/jobs\/[^/]+\/compose$/.test(r.url())),
    page.waitForEvent('download'),
    download.click(),
  ]);
  const body = request.postDataBuffer()?.toString('latin1') ?? '';
  check(/name="matte"; filename="matte.png"/.test(body), 'the edited matte was not sent to compose');
  check(/name="canvas"\r\n\r\n1080x1350\r\n/.test(body), 'compose was not asked for the 1080 x 1350 canvas');
  check(/name="background_color"\r\n\r\n#000000\r\n/.test(body), 'compose was not asked for the black background');
  check(
    file.suggestedFilename() === 'chelsea-320-no-background.webp',
    `the download is named ${file.suggestedFilename()}`,
  );
  const saved = path.join(ARTIFACTS_DIR, 'remove-background-editor.webp');
  await file.saveAs(saved);
  const meta = await sharp(saved).metadata();
  check(
    meta.format === 'webp' && meta.width === 1080 && meta.height === 1350,
    `the download is ${meta.format} ${meta.width} x ${meta.height}, not webp 1080 x 1350`,
  );
  const { data } = await sharp(saved).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  check(data[0]! < 8 && data[1]! < 8 && data[2]! < 8, `the corner is ${data[0]},${data[1]},${data[2]}, not black`);
  // The preview showed this file (with the touched-up matte): the lossy WebP's own error is all that differs.
  const difference = await previewVsFile(portrait, await fs.readFile(saved));
  console.log(`preview vs download (edited matte, black, WebP): ${difference.toFixed(3)} per channel`);
  check(difference < 1, `the preview differs from the download by ${difference.toFixed(3)} per channel`);
  await expectHeaderBalance(page, '9', 'the editor download charged tokens');
});

/** Downloads the editor's picture and returns its bytes (saved under the e2e artifacts as `name`). */
async function downloadFile(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('photo-editor').getByRole('button', { name: 'Download - free' }).click(),
  ]);
  const saved = path.join(ARTIFACTS_DIR, name);
  await file.saveAs(saved);
  return fs.readFile(saved);
}

/**
 * Issue 38: the preview is the download. A layout with a crop, a margin and a colour, then the blurred background,
 * each previewed by the server and downloaded: the preview as the browser shows it (the image's bytes) against the
 * file scaled down to the preview's size differs by less than 1 per channel on average.
 */
test('remove background -> the editor preview is the downloaded picture, on a colour and on the blurred photo', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'editor-preview');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 400));
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: JOB_MS });
  const editor = page.getByTestId('photo-editor');
  await waitForPreview(page, 1024, 1024, [255, 255, 255]);

  // Cropped (the default) with a 12% margin on a picked colour, as a JPEG.
  const margin = editor.getByRole('slider', { name: 'Margin' });
  await margin.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  const swatches = editor.getByRole('group', { name: 'Background' });
  await swatches.getByRole('button', { name: 'Colour', exact: true }).click();
  await editor.getByLabel('Background colour').fill('#3366cc');
  const colour = await waitForPreview(page, 1024, 1024, [0x33, 0x66, 0xcc]);
  await ctx.screenshot(page, 'tool-remove-background-editor-preview-colour-1280');
  const colourFile = await downloadFile(page, 'remove-background-preview-colour.jpg');
  const colourDiff = await previewVsFile(colour, colourFile);
  console.log(`preview vs download (crop, 12% margin, #3366cc, JPEG): ${colourDiff.toFixed(3)} per channel`);
  check(colourDiff < 1, `the colour preview differs from the download by ${colourDiff.toFixed(3)} per channel`);

  // The photo's own background blurred, a little stronger than the default.
  await swatches.getByRole('button', { name: 'Blur', exact: true }).click();
  await editor.getByRole('slider', { name: 'Blur strength' }).focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  // The newest settings' picture: the preview once no request is left and the settings have rested.
  await page.waitForTimeout(600);
  const blurred = await shownPreview(page);
  check(!blurred.equals(colour), 'the preview did not change to the blurred background');
  await ctx.screenshot(page, 'tool-remove-background-editor-preview-blur-1280');
  const blurFile = await downloadFile(page, 'remove-background-preview-blur.jpg');
  const blurDiff = await previewVsFile(blurred, blurFile);
  console.log(`preview vs download (crop, 12% margin, blur, JPEG): ${blurDiff.toFixed(3)} per channel`);
  check(blurDiff < 1, `the blurred preview differs from the download by ${blurDiff.toFixed(3)} per channel`);
  // The comparison can fail: the colour's preview is far from the blurred file.
  const crossed = await previewVsFile(colour, blurFile);
  check(crossed > 10, `the colour preview is within ${crossed.toFixed(3)} of the blurred file`);
});

test('a batch of background removals finishes every picture with the settings chosen before it starts', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'editor-batch');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles([await smallPhoto('chelsea', 160), await smallPhoto('coffee', 160)]);
  await page.getByTestId('batch-price').filter({ hasText: '2 images x 1 token = 2 tokens' }).waitFor();
  await page.getByLabel('Finish every picture (layout, background, format)').check();
  const settings = page.getByTestId('photo-settings');
  await settings.getByRole('group', { name: 'Background' }).getByRole('button', { name: 'Black', exact: true }).click();
  await settings.getByLabel('Canvas').selectOption({ label: 'Portrait 4:5 - social' });
  await shots(ctx, page, 'batch-finish-settings');
  await page.getByRole('button', { name: 'Process 2 images - 2 tokens' }).click();
  await page.locator('[data-testid="batch-view"][data-status="succeeded"]').waitFor({ timeout: 240_000 });
  await expectHeaderBalance(page, '8', 'balance after the batch');

  const links = page.getByTestId('batch-item').getByRole('link', { name: 'Download' });
  check((await links.count()) === 2, 'the batch does not offer two downloads');
  for (let i = 0; i < 2; i++) {
    const url = (await links.nth(i).getAttribute('href'))!;
    const bytes = await (await page.context().request.get(url)).body();
    const meta = await sharp(bytes).metadata();
    check(
      meta.format === 'jpeg' && meta.width === 1080 && meta.height === 1350,
      `item ${i + 1} is ${meta.format} ${meta.width} x ${meta.height}, not a 1080 x 1350 JPEG`,
    );
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    check(data[0]! < 8 && data[1]! < 8 && data[2]! < 8, `item ${i + 1}'s corner is not black`);
  }
});

/**
 * Touch-up strokes are the job's draft on the server (PUT /api/jobs/{id}/matte-draft): a stroke is back after a
 * reload, painted on the matte again, and leaving in the app while a stroke is not saved asks first.
 */
test('remove background -> a touch-up stroke survives a reload, and leaving with an unsaved one asks first', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'editor-draft');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('chelsea', 320));
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: JOB_MS });

  const editor = page.getByTestId('photo-editor');
  await editor.getByRole('button', { name: 'Touch up' }).click();
  await page.waitForSelector(`${PREVIEW}[data-mode="touchUp"]`);
  check(await drawnAlphaIs(page, 0.5, 0.55, (a) => a === 255), 'the cut-out is not solid where the stroke goes');
  const elsewhere = await touchUpAlpha(page, 0.5, 0.4);
  await brushStroke(page, 0.5, 0.55);
  check(await drawnAlphaIs(page, 0.5, 0.55, (a) => a < 120), 'the stroke did not erase');
  await page.waitForSelector('[data-testid="draft-state"][data-state="saved"]', { timeout: 10_000 });

  // A reload opens the same job (?job=), and the editor paints the saved stroke again.
  check(/[?&]job=/.test(page.url()), `the page's address ${page.url()} does not name the job`);
  await page.reload();
  await page.getByTestId('photo-editor').getByRole('button', { name: 'Touch up' }).click();
  await page.waitForSelector(`${PREVIEW}[data-mode="touchUp"]`);
  let alpha = 255;
  for (let i = 0; i < 50 && alpha >= 120; i++) {
    await page.waitForTimeout(100);
    alpha = await touchUpAlpha(page, 0.5, 0.55);
  }
  check(alpha < 120, `after the reload the stroke is gone (alpha ${alpha})`);
  check(await drawnAlphaIs(page, 0.5, 0.4, (a) => a === elsewhere), 'after the reload more than the stroke is erased');
  await ctx.screenshot(page, 'tool-remove-background-editor-draft-restored');

  // The server holds the next save: leaving in the app asks, and Stay keeps the page.
  let held = 0;
  await page.route('**/api/jobs/*/matte-draft', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    held += 1; // never answered: the stroke stays unsaved
  });
  await brushStroke(page, 0.5, 0.4);
  await page.getByRole('banner').getByRole('link').first().click();
  const dialog = page.getByRole('dialog', { name: 'Leave the editor?' });
  await dialog.waitFor({ timeout: 5_000 });
  check(held >= 1, 'asking did not send the waiting save at once');
  await ctx.screenshot(page, 'tool-remove-background-editor-leave-asks');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await dialog.waitFor({ state: 'hidden' });
  check(page.url().includes('/services/remove-background'), `Stay left the page for ${page.url()}`);
  check(await drawnAlphaIs(page, 0.5, 0.4, (a) => a < 120), 'Stay lost the unsaved stroke');
});
