import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, shots, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** The local fake images API answers at once; the worker decodes, blends and encodes a small photo. */
const JOB_MS = 60_000;
/** The colour the fake images API paints its whole answer in. */
const FAKE_FILL = [0xd2, 0x45, 0x2a];
const CANVAS = '[data-testid="erase-canvas"]';

/** Browser-side code as text: the e2e TypeScript project has no DOM types. */
const js = String.raw;

/** A horizontal brush stroke through (fx, fy), in fractions of the painting on screen. */
async function brushStroke(page: Page, fx: number, fy: number): Promise<void> {
  const box = (await page.locator(CANVAS).boundingBox())!;
  const y = box.y + box.height * fy;
  await page.mouse.move(box.x + box.width * (fx - 0.1), y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (fx - 0.1 + i * 0.02), y);
  await page.mouse.up();
}

/** The same stroke by a finger: touch events (Chromium's touch emulation) become pointer events of type touch. */
async function touchStroke(page: Page, fx: number, fy: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const box = (await page.locator(CANVAS).boundingBox())!;
  const at = (f: number) => [{ x: box.x + box.width * f, y: box.y + box.height * fy }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(fx - 0.1) });
  for (let i = 1; i <= 10; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(fx - 0.1 + i * 0.02) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
  await cdp.detach();
}

async function strokes(page: Page): Promise<number> {
  return Number(await page.locator(CANVAS).getAttribute('data-strokes'));
}

/** The RGB of the comparison's two pictures at (fx, fy) of their size, read through a canvas. */
async function pixels(page: Page, fx: number, fy: number): Promise<{ before: number[]; after: number[] }> {
  return (await page.evaluate(js`(async () => {
    const read = async (img) => {
      const copy = new Image();
      copy.crossOrigin = 'anonymous';
      copy.src = img.currentSrc || img.src;
      await copy.decode();
      const canvas = document.createElement('canvas');
      canvas.width = copy.naturalWidth;
      canvas.height = copy.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(copy, 0, 0);
      const x = Math.floor(canvas.width * ${fx});
      const y = Math.floor(canvas.height * ${fy});
      return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    };
    const imgs = [...document.querySelectorAll('[data-testid="compare"] img')];
    const after = imgs.find((i) => i.closest('[data-testid="compare-after"]')) ?? imgs[0];
    const before = imgs.find((i) => i !== after);
    return { before: await read(before), after: await read(after) };
  })()`)) as { before: number[]; after: number[] };
}

const near = (a: number[], b: number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

test('Erase: paint a stroke (undo, redo, keyboard, touch), run it, see only the painted area filled on the before/after slider, one token', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'erase');
  await allToolsWorker(workers, page);
  await page.goto('/services/erase');
  await page.getByRole('heading', { name: 'Erase objects', level: 1 }).waitFor();
  const run = page.getByRole('button', { name: 'Erase - 1 token' });
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 200));
  await page.locator(CANVAS).waitFor();
  // Nothing painted: Run waits and says why.
  await page.getByText('Paint over what to erase first.').waitFor();
  check(await run.isDisabled(), 'Run is enabled before anything is painted');

  await page.locator(CANVAS).evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
  await brushStroke(page, 0.5, 0.5);
  check((await strokes(page)) === 1, `after a stroke the painting has ${await strokes(page)} strokes`);
  await page.getByRole('button', { name: 'Undo' }).click();
  check((await strokes(page)) === 0 && (await run.isDisabled()), 'Undo left a stroke or Run enabled');
  await page.getByRole('button', { name: 'Redo' }).click();
  check((await strokes(page)) === 1, 'Redo did not bring the stroke back');
  // The keyboard's brush: Space puts it down, arrows paint, Space lifts it; Ctrl+Z takes that stroke back.
  await page.locator(CANVAS).focus();
  await page.keyboard.press('Space');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  check((await strokes(page)) === 2, `after the keyboard's stroke the painting has ${await strokes(page)}`);
  await page.keyboard.press('Control+z');
  check((await strokes(page)) === 1, 'Ctrl+Z did not undo the keyboard stroke');
  // A finger paints too (low in the photo, away from the pixels checked below); Undo takes it back.
  await touchStroke(page, 0.5, 0.85);
  check((await strokes(page)) === 2, `after a touch stroke the painting has ${await strokes(page)}`);
  await page.getByRole('button', { name: 'Undo' }).click();
  check((await strokes(page)) === 1, 'Undo did not take the touch stroke back');
  await ctx.screenshot(page, 'tool-erase-painted-1280');

  await run.click();
  const result = page.getByTestId('result');
  await result.waitFor({ timeout: JOB_MS });
  await result.getByTestId('compare').waitFor();
  await result.getByText('Before').first().waitFor();
  await result.getByText('After').first().waitFor();
  await page.waitForFunction(
    js`[...document.querySelectorAll('[data-testid="compare"] img')].every((i) => i.complete && i.naturalWidth > 0)`,
  );
  // In the stroke the images API's fill; far from it the photo's own pixels.
  const inStroke = await pixels(page, 0.5, 0.5);
  check(near(inStroke.after, FAKE_FILL, 3), `the painted area is ${inStroke.after}, not the fill ${FAKE_FILL}`);
  for (const [fx, fy] of [
    [0.05, 0.05],
    [0.95, 0.9],
    [0.5, 0.1],
  ] as const) {
    const { before, after } = await pixels(page, fx, fy);
    check(near(after, before, 2), `at ${fx},${fy} the result is ${after}, the photo ${before}`);
  }
  await expectHeaderBalance(page, '9', 'one erase');
  await shots(ctx, page, 'tool-erase');
});
