import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { heifEnc } from '@imagestudio/runtime/testing';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check } from '../lib/harness';
import { smallPhoto, waitForTool } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** CPU inference on a shared machine: allow a generous wait for a job to finish. */
const JOB_MS = 120_000;

/**
 * A phone's HEIC in Chromium, which cannot decode HEVC: the page checks its size from the header, shows a
 * placeholder instead of a broken image until the upload is accepted, then the server's WebP preview as the
 * comparison's "before"; the real worker decodes it, and the cut-out keeps the photo's Display P3 profile.
 */
test('a Display P3 HEIC from a phone: checked from its header, a placeholder, then a WebP before, a P3 cut-out', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'heic');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  const jpeg = await sharp(await smallPhoto('chelsea', 320))
    .withIccProfile('p3')
    .jpeg({ quality: 95 })
    .toBuffer();
  const heicFile = path.join(ARTIFACTS_DIR, 'IMG_0001.heic');
  fs.writeFileSync(heicFile, await heifEnc(jpeg, { quality: 90 }));
  const p3 = (await sharp(jpeg).metadata()).icc!;
  const height = (await sharp(jpeg).metadata()).height!;

  await page.goto('/services/remove-background');
  await page.getByRole('button', { name: 'Remove background - 1 token' }).waitFor();
  await page.getByLabel('Image', { exact: true }).setInputFiles(heicFile);
  await page.getByText(`IMG_0001.heic - 320 x ${height} px`).waitFor();
  const preview = page.getByTestId('input-preview');
  const src = (await preview.getAttribute('src')) ?? '';
  check(src.startsWith('data:image/svg+xml'), `the HEIC preview is ${src.slice(0, 40)}, not the placeholder`);
  check(
    decodeURIComponent(src).includes('this browser cannot show this image'),
    'the placeholder does not say why there is no preview',
  );
  // The placeholder renders, with the photo's proportions.
  await page.waitForFunction(`document.querySelector('[data-testid="input-preview"]')?.naturalWidth > 0`);
  const box = (await preview.boundingBox())!;
  check(Math.abs(box.width / box.height - 320 / height) < 0.05, `the placeholder is ${box.width} x ${box.height}`);
  await ctx.screenshot(page, 'tool-remove-background-heic-placeholder-1280');

  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  await page.getByRole('slider', { name: 'Original and result comparison' }).waitFor({ timeout: JOB_MS });
  await page.waitForFunction(
    `document.querySelector('[data-testid="compare"] img[alt="Result"]')?.naturalWidth === 320`,
  );
  // The "before" is the WebP preview the server made of the HEIC at upload: Chromium shows it, as it cannot the HEIC.
  await page.waitForFunction(
    `document.querySelector('[data-testid="compare"] img[alt="Original"]')?.naturalWidth === 320`,
  );
  const before = (await page.locator('[data-testid="compare"] img[alt="Original"]').getAttribute('src')) ?? '';
  check(before.includes('/preview.webp'), `the comparison's before is ${before.slice(0, 80)}, not the input's preview`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
  check(
    download.suggestedFilename() === 'IMG_0001-no-background.png',
    `the download is named ${download.suggestedFilename()}`,
  );
  const file = path.join(ARTIFACTS_DIR, 'heic-cut-out.png');
  await download.saveAs(file);
  const meta = await sharp(file).metadata();
  check(meta.format === 'png' && meta.hasAlpha === true, `the download is ${meta.format}, alpha ${meta.hasAlpha}`);
  check(meta.icc?.equals(p3) === true, 'the cut-out lost the Display P3 profile of the HEIC');
  check(meta.exif === undefined, 'the cut-out carries EXIF');
  await ctx.screenshot(page, 'tool-remove-background-heic-result-1280');
});
