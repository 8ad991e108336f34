import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { allToolsWorker, expectHeaderBalance, shots, smallPhoto } from '../lib/tools';
import { signedInPage } from '../lib/users';

/** CPU matting of a small photo plus the local fake images API. */
const JOB_MS = 120_000;

test('AI background: upload a photo, pick a scene, get the result over the photo on a before/after slider, one token', async ({
  ctx,
  workers,
}) => {
  const page = await signedInPage(ctx, 'aibg');
  await allToolsWorker(workers, page);
  await page.goto('/services/ai-background');
  await page.getByRole('heading', { name: 'AI background', level: 1 }).waitFor();
  await page.getByLabel('Image', { exact: true }).setInputFiles(await smallPhoto('coffee', 200));
  // An own prompt opens its text field; a preset closes it again.
  await page.getByLabel('My own prompt').check();
  await page.getByLabel('Describe the background').fill('on a wooden table in a sunny cafe');
  await page.getByLabel('Marble table').check();
  check((await page.getByLabel('Describe the background').count()) === 0, 'the prompt field stayed with a preset');
  await page.getByRole('button', { name: 'Paint background - 1 token' }).click();
  const result = page.getByTestId('result');
  await result.waitFor({ timeout: JOB_MS });
  await result.getByText('Before').first().waitFor();
  await result.getByText('After').first().waitFor();
  await expectHeaderBalance(page, '9', 'one AI background');
  await shots(ctx, page, 'tool-ai-background');
});
