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

interface PreviewState {
  mode: string;
  width: number;
  height: number;
  /** A fingerprint of every pixel. */
  sum: number;
  /** RGBA of the top-left pixel. */
  corner: number[];
}

/** The preview canvas as the browser drew it (browser code as text: the e2e project has no DOM types). */
async function preview(page: Page): Promise<PreviewState> {
  return (await page.evaluate(`(() => {
    const c = document.querySelector('${PREVIEW}');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 1) sum = (Math.imul(sum, 31) + d[i]) >>> 0;
    return { mode: c.dataset.mode, width: c.width, height: c.height, sum, corner: Array.from(d.slice(0, 4)) };
  })()`)) as PreviewState;
}

/** Waits until the preview shows `mode` at `width` x `height` with the top-left pixel `corner`. */
async function waitForPreview(page: Page, mode: string, width: number, height: number, corner: number[]) {
  await page.waitForFunction(
    `(() => {
      const c = document.querySelector('${PREVIEW}');
      if (!c || c.dataset.mode !== '${mode}' || c.width !== ${width} || c.height !== ${height}) return false;
      return Array.from(c.getContext('2d').getImageData(0, 0, 1, 1).data).join() === '${corner.join()}';
    })()`,
    undefined,
    { timeout: 20_000 },
  );
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

/** A horizontal brush stroke through (fx, fy), in fractions of the canvas on screen. */
async function brushStroke(page: Page, fx: number, fy: number): Promise<void> {
  const box = (await page.locator(PREVIEW).boundingBox())!;
  const y = box.y + box.height * fy;
  await page.mouse.move(box.x + box.width * (fx - 0.08), y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width * (fx - 0.08 + i * 0.02), y);
  await page.mouse.up();
}

/** The same stroke by a finger: touch events (Chromium's touch emulation) become pointer events of type touch. */
async function touchStroke(page: Page, fx: number, fy: number): Promise<void> {
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

  // The editor starts as a marketplace picture: a white 2000 px square, previewed at 800 px.
  const editor = page.getByTestId('photo-editor');
  await waitForPreview(page, 'layout', 800, 800, [255, 255, 255, 255]);
  const white = await preview(page);
  const swatches = editor.getByRole('group', { name: 'Background' });
  await swatches.getByRole('button', { name: 'Black', exact: true }).click();
  await waitForPreview(page, 'layout', 800, 800, [0, 0, 0, 255]);
  const black = await preview(page);
  check(black.sum !== white.sum, 'the preview did not change with the background');
  // The margin slider works from the keyboard and moves the subject: the pixels change again.
  const margin = editor.getByRole('slider', { name: 'Margin' });
  await margin.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  check((await margin.inputValue()) === '13', `the margin slider reads ${await margin.inputValue()} after 5 steps`);
  await page.waitForFunction(`(() => {
    const c = document.querySelector('${PREVIEW}');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 1) sum = (Math.imul(sum, 31) + d[i]) >>> 0;
    return sum !== ${black.sum};
  })()`);

  // Touch up: erase a stroke through the middle of the cat, undo it, erase it again.
  await editor.getByRole('button', { name: 'Touch up' }).click();
  await page.waitForSelector(`${PREVIEW}[data-mode="touchUp"]`);
  const before = await touchUpAlpha(page, 0.5, 0.55);
  check(before === 255, `the middle of the cut-out is not opaque in the touch-up view (alpha ${before})`);
  await brushStroke(page, 0.5, 0.55);
  const erased = await touchUpAlpha(page, 0.5, 0.55);
  // Erased: only the faint photo under the cut-out shows there.
  check(erased < 120, `the erased stroke still shows alpha ${erased}`);
  const undo = editor.getByRole('button', { name: 'Undo' });
  await undo.click();
  check((await touchUpAlpha(page, 0.5, 0.55)) === 255, 'undo did not bring the erased part back');
  check(await undo.isDisabled(), 'undo stays enabled with nothing left to undo');
  await brushStroke(page, 0.5, 0.55);
  check((await touchUpAlpha(page, 0.5, 0.55)) < 120, 'the second stroke did not erase');
  // A finger restores what the mouse erased, and erases elsewhere.
  const brush = editor.getByTestId('brush-tools');
  await brush.getByRole('button', { name: 'Restore' }).click();
  await touchStroke(page, 0.5, 0.55);
  check((await touchUpAlpha(page, 0.5, 0.55)) === 255, 'restoring by touch did not bring the cut-out back');
  await brush.getByRole('button', { name: 'Erase' }).click();
  const solid = await touchUpAlpha(page, 0.5, 0.4);
  check(solid > 200, `the cut-out is not solid where the finger will erase (alpha ${solid})`);
  await touchStroke(page, 0.5, 0.4);
  check((await touchUpAlpha(page, 0.5, 0.4)) < 120, 'erasing by touch left the cut-out there');
  // The keyboard: the brush starts at the middle; Space puts it down, arrows paint, Space lifts it, Ctrl+Z undoes.
  const solidMiddle = await touchUpAlpha(page, 0.5, 0.48);
  check(solidMiddle > 200, `the cut-out is not solid where the keyboard will erase (alpha ${solidMiddle})`);
  await page.locator(PREVIEW).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('[data-testid="brush-cursor"]');
  check((await touchUpAlpha(page, 0.5, 0.48)) === solidMiddle, 'moving the lifted brush with the arrow keys painted');
  await page.keyboard.press('Space');
  const keyState = editor.getByTestId('brush-key-state');
  await keyState.filter({ hasText: 'Painting: move with the arrow keys, Space stops.' }).waitFor();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await ctx.screenshot(page, 'tool-remove-background-editor-keyboard-brush-1280');
  await page.keyboard.press('Space');
  await keyState.filter({ hasText: 'Brush lifted: Space starts painting.' }).waitFor();
  check((await touchUpAlpha(page, 0.5, 0.48)) < 120, 'the keyboard stroke did not erase where the brush went down');
  check((await touchUpAlpha(page, 0.54, 0.48)) < 120, 'the keyboard stroke did not erase along the arrow moves');
  await page.keyboard.press('Control+z');
  check((await touchUpAlpha(page, 0.5, 0.48)) === solidMiddle, 'Ctrl+Z did not undo the keyboard stroke');
  check((await touchUpAlpha(page, 0.5, 0.4)) < 120, 'Ctrl+Z undid more than the keyboard stroke');
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
  await waitForPreview(page, 'layout', 640, 800, [0, 0, 0, 255]);
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
  await expectHeaderBalance(page, '9', 'the editor download charged tokens');
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
