import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, shots, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** The local fake images API answers at once; the worker decodes, places and encodes a small photo. */
const JOB_MS = 60_000;

/** Browser-side code as text: the e2e TypeScript project has no DOM types. */
const js = String.raw;

test('Expand: upload a photo, pick 16:9 with its outline, get a wider result on the before/after slider, one token', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'expand');
  await allToolsWorker(workers, page);
  await page.goto('/services/expand');
  await page.getByRole('heading', { name: 'Expand', level: 1 }).waitFor();
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 200));

  // The outline follows the choice: square first, then 16:9 with the photo on the left.
  const preview = page.getByTestId('expand-preview');
  await page.getByLabel('Square 1:1').check();
  await preview.waitFor();
  const square = (await preview.getAttribute('data-canvas'))!.split('x').map(Number);
  check(square[0] === square[1], `the square outline is ${square.join('x')}`);
  await page.getByLabel('Widescreen 16:9').check();
  await page.getByLabel('Left').check();
  await page.waitForFunction(
    js`(() => {
      const [w, h] = document.querySelector('[data-testid="expand-preview"]').dataset.canvas.split('x').map(Number);
      return Math.abs(w / h - 16 / 9) < 0.02;
    })()`,
  );
  await ctx.screenshot(page, 'tool-expand-outline-1280');
  const photoWidth = Number((await page.getByTestId('expand-size').textContent())?.match(/(\d+) x/)?.[1]);
  check(photoWidth > 200, `the planned size says ${await page.getByTestId('expand-size').textContent()}`);

  await page.getByRole('button', { name: 'Expand photo - 1 token' }).click();
  const result = page.getByTestId('result');
  await result.waitFor({ timeout: JOB_MS });
  await result.getByTestId('compare').waitFor();
  await result.getByText('Before').first().waitFor();
  await result.getByText('After').first().waitFor();
  // The result is the canvas: 16:9, wider than the 200-pixel photo; the "before" has the same shape.
  await page.waitForFunction(
    js`[...document.querySelectorAll('[data-testid="compare"] img')].every((i) => i.complete && i.naturalWidth > 0)`,
  );
  const sizes = (await page.evaluate(
    js`[...document.querySelectorAll('[data-testid="compare"] img')].map((i) => [i.naturalWidth, i.naturalHeight])`,
  )) as [number, number][];
  const [after, before] = sizes as [[number, number], [number, number]];
  check(after[0] === photoWidth && after[0] > 200, `the result is ${after.join('x')}`);
  check(Math.abs(after[0] / after[1] - 16 / 9) < 0.02, `the result is ${after.join('x')}, not 16:9`);
  check(Math.abs(before[0] / before[1] - after[0] / after[1]) < 0.02, `the before is ${before.join('x')}`);
  await expectHeaderBalance(page, '9', 'one expansion');
  await shots(ctx, page, 'tool-expand');
});
