import path from 'node:path';
import type { Page } from '@playwright/test';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check } from '../lib/harness';
import { allToolsWorker, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

const DESKTOP = { width: 1366, height: 800 };

/** Whether an element is wholly inside the window as it is now (nothing scrolled). */
async function inSight(page: Page, testId: string): Promise<{ top: number; bottom: number; seen: boolean }> {
  const box = (await page.getByTestId(testId).first().boundingBox())!;
  return { top: box.y, bottom: box.y + box.height, seen: box.y >= 0 && box.y + box.height <= DESKTOP.height };
}

test('at 1366 x 800 the upscale run button and the out-of-tokens notice are in sight without scrolling', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'fold');
  await allToolsWorker(workers, page);
  await page.setViewportSize(DESKTOP);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByRole('button', { name: 'Upscale - 1 token' }).waitFor();
  check((await page.evaluate('window.scrollY')) === 0, 'the page opened scrolled');
  const run = await inSight(page, 'run');
  check(run.seen, `the run button is at ${run.top}-${run.bottom} px of an ${DESKTOP.height} px window`);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'fold-upscale-run-1366.png') });

  // More images than the 10 free tokens pay for: the notice says so, in sight too.
  const files = await Promise.all(Array.from({ length: 11 }, (_, i) => smallPhoto('coffee', 40 + i)));
  await page.getByLabel('Image', { exact: true }).setInputFiles(files);
  await page.getByTestId('not-enough-tokens').first().waitFor();
  await page.evaluate('window.scrollTo(0, 0)');
  const notice = await inSight(page, 'not-enough-tokens');
  check(notice.seen, `the out-of-tokens notice is at ${notice.top}-${notice.bottom} px of ${DESKTOP.height} px`);
  const button = await inSight(page, 'run');
  check(button.seen, `with the notice the run button is at ${button.top}-${button.bottom} px`);
  await ctx.screenshot(page, 'fold-upscale-out-of-tokens-1366');
});
