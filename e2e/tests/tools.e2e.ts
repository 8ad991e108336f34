import path from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { test } from '../lib/fixtures';
import { ARTIFACTS_DIR, check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, shots, smallPhoto, startBusyUpscale, waitForTool } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** CPU inference on a shared machine: allow a generous wait for a job to finish. */
const JOB_MS = 120_000;

/** The three tools in the browser; `workers` starts the real CPU worker (and the tiny generation model). */
test('upload a photo -> remove background -> transparent result that downloads as a PNG with alpha', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'rembg');
  await workers.ensure();
  await waitForTool(page, 'remove-background', true);
  await page.goto('/services/remove-background');
  await page.getByRole('button', { name: 'Remove background - 1 token' }).waitFor();
  await shots(ctx, page, 'tool-remove-background-before');
  const photo = await smallPhoto('chelsea', 320);
  const photoMeta = await sharp(photo).metadata();
  await page.getByLabel('Image', { exact: true }).setInputFiles(photo);
  await page.getByText(/chelsea-320\.png - 320 x \d+ px/).waitFor();
  // The opaque photo is shown without checkerboard strips: the pattern sits on the image alone.
  const preview = (await page.getByTestId('input-preview').boundingBox())!;
  check(
    Math.abs(preview.width / preview.height - photoMeta.width! / photoMeta.height!) < 0.05,
    `the preview box is ${preview.width} x ${preview.height}, not the photo's shape`,
  );
  await page.getByRole('button', { name: 'Remove background - 1 token' }).click();
  // The stage is named while it runs (the first job of a fresh install has no time estimate yet).
  await page
    .getByTestId('job-stage')
    .filter({ hasText: /Fetching your image|Processing|Encoding the result|Saving the result|Starting|queue/ })
    .waitFor({ timeout: JOB_MS });
  await ctx.screenshot(page, 'tool-remove-background-progress-1280');
  const slider = page.getByRole('slider', { name: 'Original and result comparison' });
  await slider.waitFor({ timeout: JOB_MS });
  await expectHeaderBalance(page, '9', 'balance after the job');
  // Browser-side code as text: the e2e TypeScript project has no DOM types.
  await page.waitForFunction(
    `document.querySelector('[data-testid="compare"] img[alt="Result"]')?.naturalWidth === 320`,
  );
  const checker = String(
    await page.evaluate(`getComputedStyle(document.querySelector('[data-testid="compare"]')).backgroundImage`),
  );
  check(checker.includes('linear-gradient'), 'the result is not on a checkerboard');
  // Backdrops change the view only: no new job, no new charge.
  await page.getByTestId('backdrop-picker').getByRole('button', { name: 'Black' }).click();
  const black = String(
    await page.evaluate(`getComputedStyle(document.querySelector('[data-testid="compare"]')).backgroundColor`),
  );
  check(black === 'rgb(0, 0, 0)', `the black backdrop shows ${black}`);
  await ctx.screenshot(page, 'tool-remove-background-backdrop-black-1280');
  await page.getByTestId('backdrop-picker').getByRole('button', { name: 'Colour' }).click();
  await page.getByLabel('Preview colour').fill('#ff8800');
  const picked = String(
    await page.evaluate(`getComputedStyle(document.querySelector('[data-testid="compare"]')).backgroundColor`),
  );
  check(picked === 'rgb(255, 136, 0)', `the picked backdrop shows ${picked}`);
  await ctx.screenshot(page, 'tool-remove-background-backdrop-colour-1280');
  await expectHeaderBalance(page, '9', 'changing the backdrop charged tokens');
  // Download is the primary action and is named after the input.
  const downloadLink = page.getByTestId('download');
  check(
    ((await downloadLink.getAttribute('class')) ?? '').includes('btn--primary'),
    'Download is not the primary action',
  );
  const [download] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
  check(
    download.suggestedFilename() === 'chelsea-320-no-background.png',
    `the download is named ${download.suggestedFilename()}`,
  );
  const file = path.join(ARTIFACTS_DIR, 'remove-background-result.png');
  await download.saveAs(file);
  const meta = await sharp(file).metadata();
  check(meta.format === 'png' && meta.hasAlpha === true, `download is ${meta.format}, alpha ${meta.hasAlpha}`);
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let transparent = 0;
  for (let i = info.channels - 1; i < data.length; i += info.channels) if (data[i]! < 16) transparent += 1;
  check(transparent > info.width * info.height * 0.05, `only ${transparent} transparent pixels in the result`);
  await page.getByTestId('backdrop-picker').getByRole('button', { name: 'Transparent' }).click();
  await shots(ctx, page, 'tool-remove-background-after');
  // The same image with the same options again: the page asks before charging another token.
  await page.getByRole('button', { name: 'Run again - 1 token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run the same job again?' });
  await dialog.waitFor();
  await ctx.screenshot(page, 'tool-remove-background-rerun-confirm-1280');
  await dialog.getByRole('button', { name: 'Keep this result' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expectHeaderBalance(page, '9', 'keeping the result charged tokens');
});

test('upscale 2x with the illustration model -> the before/after slider moves with the keyboard and the pointer', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'upscale');
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  await page.goto('/services/upscale');
  // The models the live CPU worker runs, one sentence each; photo is the default.
  await page.getByLabel('Fast - quickest, softest').waitFor();
  check(
    await page.getByLabel('Photo - removes compression blocks and noise').isChecked(),
    'photo is not the default model',
  );
  check(
    (await page.getByTestId('model-picker').getByRole('radio').count()) === 3,
    'the picker does not list exactly photo, illustration and fast',
  );
  await page.getByLabel('Illustration - clean lines for drawings and anime').check();
  await page.getByLabel('Factor').selectOption('2');
  await page.getByRole('button', { name: 'Upscale - 1 token' }).waitFor();
  await shots(ctx, page, 'tool-upscale-before');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 128));
  await page.getByText(/coffee-128\.png - 128 x \d+ px/).waitFor();
  await page.getByRole('button', { name: 'Upscale - 1 token' }).click();
  const slider = page.getByRole('slider', { name: 'Before and after comparison' });
  await slider.waitFor({ timeout: JOB_MS });
  await page.getByText(/^256 x \d+ px$/).waitFor();
  const job = await page.context().request.get(`/api/jobs/${new URL(page.url()).searchParams.get('job')}`);
  check((await job.json()).payload.params.model === 'illustration', 'the job did not run the chosen model');
  check((await slider.getAttribute('aria-valuenow')) === '50', 'the slider does not start in the middle');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('PageUp');
  check(
    (await slider.getAttribute('aria-valuenow')) === '61',
    `keyboard moved the slider to ${await slider.getAttribute('aria-valuenow')}`,
  );
  const box = (await page.getByTestId('compare').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const dragged = Number(await slider.getAttribute('aria-valuenow'));
  check(dragged >= 18 && dragged <= 22, `pointer drag moved the slider to ${dragged}`);
  await shots(ctx, page, 'tool-upscale-after');
  await page.getByRole('button', { name: 'Zoom lens' }).click();
  const lens = page.getByTestId('zoom-lens');
  const lb = (await lens.boundingBox())!;
  await page.mouse.move(lb.x + lb.width / 2, lb.y + lb.height / 2);
  await page.locator('.zoom__lens').waitFor();
  await ctx.screenshot(page, 'tool-upscale-lens-1280');
});

test('a queued job shows its place and time left; a running upscale names its tile and cancels with one message; a failed job refunds', async ({
  ctx,
  workers,
  s3,
}) => {
  const page = await signedInPage(ctx, 'fail');
  await workers.ensure();
  await waitForTool(page, 'upscale', true);
  // A first job keeps the single worker busy, so the second one waits in the queue.
  const busyId = await startBusyUpscale(page);
  await page.goto('/services/upscale');
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 96));
  await page.getByText(/coffee-96\.png/).waitFor();
  await page.getByRole('button', { name: 'Upscale - 1 token' }).click();
  await page
    .getByText(/Position \d+ in the queue|Queued/)
    .first()
    .waitFor();
  // The x2 run of the earlier test taught the estimate: a queued job says how long until its result.
  await page
    .getByTestId('job-time-left')
    .filter({ hasText: /seconds left|Less than a minute left|About (a|\d+) minutes? left|Almost done/ })
    .waitFor();
  await page.waitForURL((url) => url.searchParams.has('job'));
  // Charged on accept: the header follows without a reload.
  await page.waitForFunction(`document.querySelector('[data-testid="balance"] strong')?.textContent === '8'`);
  await shots(ctx, page, 'tool-upscale-queued');
  // The input disappears from storage before the worker reaches the job: the worker fails it for good.
  const jobId = new URL(page.url()).searchParams.get('job')!;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'inputs/' }));
  const keys = (listed.Contents ?? []).filter((o) => o.Key?.includes(`/${jobId}/`)).map((o) => ({ Key: o.Key! }));
  check(keys.length > 0, `no stored input for job ${jobId}`);
  await client.send(new DeleteObjectsCommand({ Bucket: s3.bucket, Delete: { Objects: keys } }));
  client.destroy();
  // The busy job is upscaled tile by tile, and the page says which tile it is on.
  await page.goto(`/services/upscale?job=${busyId}`);
  await page
    .getByTestId('job-stage')
    .filter({ hasText: /^Processing tile \d+ of \d+$/ })
    .waitFor({ timeout: JOB_MS });
  // A quick picture of the running state (axe runs on the cancelled state below: the job must not end first).
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'tool-upscale-tiles-1280.png') });
  // Cancelling it shows one message, which includes the refund.
  await page.getByTestId('job-status').getByRole('button', { name: 'Cancel' }).click();
  const ended = page.getByTestId('job-ended-message');
  await ended.filter({ hasText: 'Cancelled. Your tokens have been refunded.' }).waitFor({ timeout: JOB_MS });
  const statusText = (await page.getByTestId('job-status').textContent()) ?? '';
  check(
    (statusText.match(/refunded/g) ?? []).length === 1 && !statusText.includes('was cancelled'),
    `the cancelled job says: ${statusText}`,
  );
  await shots(ctx, page, 'tool-upscale-cancelled');
  await page.goto(`/services/upscale?job=${jobId}`);
  await ended.filter({ hasText: /refunded/ }).waitFor({ timeout: JOB_MS });
  await page.waitForFunction(
    `document.querySelector('[data-testid="balance"] strong')?.textContent === '10'`,
    undefined,
    { timeout: 10_000 },
  );
  await shots(ctx, page, 'tool-upscale-failed');
  await page.goto('/account/request-history');
  await page.getByTestId('history-row').first().waitFor();
  await page.getByText('Refunded').first().waitFor();
  await ctx.screenshot(page, 'account-request-history-1280');
});

test('with the tiny test generation model, generate 2 images; they appear in My Projects', async ({ ctx, workers }) => {
  const page = await signedInPage(ctx, 'gen');
  await allToolsWorker(workers, page);
  await page.goto('/services/generate-image');
  await page.getByLabel('Prompt').fill('a red fox in the snow');
  await page.getByLabel('Number of images').selectOption('2');
  await page.getByLabel('Style').selectOption('watercolor');
  const button = page.getByRole('button', { name: 'Generate - 2 tokens' });
  await button.waitFor();
  await shots(ctx, page, 'tool-generate-before');
  await button.click();
  await page.getByTestId('results').waitFor({ timeout: JOB_MS });
  check((await page.getByTestId('results').getByRole('img').count()) === 2, 'expected 2 generated images');
  await page.waitForFunction(
    `[...document.querySelectorAll('[data-testid="results"] img')].every((img) => img.complete && img.naturalWidth === 1024)`,
  );
  await expectHeaderBalance(page, '8', 'balance after generating 2');
  await shots(ctx, page, 'tool-generate-after');
  await page.goto('/account/my-projects');
  await page.getByTestId('project-card').first().waitFor();
  await ctx.screenshot(page, 'account-my-projects-1280');
});
