import type { Page } from '@playwright/test';
import { FakeImagesApi } from '../../worker/src/generation-api/test-support/fake-images-api';
import { test } from '../lib/fixtures';
import { check } from '../lib/harness';
import { expectHeaderBalance, shots, waitForTool } from '../lib/tools';
import { signedInPage, xsrfToken } from '../lib/users';

/** A generation job through the hosted images API (a local fake) is quick; allow for a shared machine. */
const JOB_MS = 60_000;
/** The page asks every 10 s: once the API reports a tool, the page shows it within this (with room for load). */
const REFRESH_MS = 30_000;

async function generateOnce(page: Page, prompt: string): Promise<void> {
  await page.getByLabel('Prompt').fill(prompt);
  await page.getByRole('button', { name: 'Generate - 1 token' }).click();
}

/**
 * Honest availability with the real worker: without generation the client leads elsewhere and says
 * why; when a worker with an images API (a local fake of it) comes, the open page turns into the form by
 * itself; generation works, and a declined prompt shows the plain message and the refund.
 */
test('without generation, Start creating leads to a working tool, the menu marks generation off, its page says why, and a worker with an images API brings it back', async ({
  ctx,
  workers,
}) => {
  const api = await FakeImagesApi.start();
  let page: Page | undefined;
  try {
    await workers.start();
    page = await signedInPage(ctx, 'avail');
    await waitForTool(page, 'remove-background', true);
    await waitForTool(page, 'generate', false);

    // A guest hears only of what runs: the hero leads with the image tools, the generation landing page says it
    // is off instead of selling it, and About says so above its text.
    const guest = await ctx.newPage();
    await guest.goto('/');
    await guest.getByRole('heading', { name: 'Clean cut-outs and sharper photos in seconds', level: 1 }).waitFor();
    await ctx.screenshot(guest, 'home-generation-off-1280');
    await guest.goto('/generate-image');
    await guest.getByTestId('tool-switched-off').waitFor();
    check((await guest.getByTestId('landing-price').count()) === 0, 'the generation landing page still sells it');
    await guest.goto('/about');
    const notice = (await guest.getByTestId('tools-off-notice').textContent()) ?? '';
    check(notice.startsWith('Image generation is switched off'), `About says "${notice}"`);
    await guest.close();

    await page.goto('/');
    await page.getByRole('link', { name: 'Start creating' }).click();
    await page.waitForURL((url) => url.pathname === '/services/remove-background');

    // Opened by a click, which pins it open. Once in CI a hover here left the menu shut for 10 s (not reproduced,
    // cause unknown); this test is about the mark, and shell.e2e.ts checks the hover.
    const services = page.getByRole('button', { name: 'Services' });
    await services.click();
    const mark = page.getByTestId('service-off-generate');
    await mark.waitFor();
    check(
      (await mark.textContent())?.includes('Generate image (switched off right now)'),
      'the menu does not mark generation as off',
    );
    await ctx.screenshot(page, 'services-menu-generation-off-1280');
    await services.click();
    await mark.waitFor({ state: 'hidden' });

    await page.goto('/services/generate-image');
    const panel = page.getByTestId('tool-switched-off');
    await panel.waitFor();
    const text = (await panel.getByRole('status').textContent()) ?? '';
    check(
      text === 'Image generation is switched off on this server right now. Background removal and upscaling work.',
      `the page says "${text}"`,
    );
    check((await page.getByLabel('Prompt').count()) === 0, 'a prompt field is offered although generation cannot run');
    await panel.getByRole('link', { name: 'Upscale image' }).waitFor();
    // A request made around the page is refused before any charge.
    const xsrf = await xsrfToken(page);
    const res = await page.context().request.post('/api/tools/generate', {
      headers: { 'X-XSRF-TOKEN': xsrf },
      data: { prompt: 'x', size: '1024x1024' },
    });
    check(res.status() === 503, `generate without a backend answered ${res.status()}`);
    await expectHeaderBalance(page, '10', 'the refused generate request');
    await shots(ctx, page, 'tool-generate-switched-off');

    // A generation-only worker with the images API comes (no models to load, as on a host without a GPU):
    // once its heartbeat is in, the open page offers the form without a reload.
    await workers.start({
      WORKER_TOOLS: 'generate',
      GENERATION_API_URL: api.baseUrl,
      GENERATION_API_KEY: 'sk-e2e-key',
      GENERATION_API_MODEL: 'gpt-image-1',
    });
    await waitForTool(page, 'generate', true, 120_000);
    await page.getByLabel('Prompt').waitFor({ timeout: REFRESH_MS });
    check((await page.getByTestId('tool-switched-off').count()) === 0, 'the switched-off text stayed');

    await generateOnce(page, 'a lighthouse at dusk');
    await page.getByTestId('results').waitFor({ timeout: JOB_MS });
    check(
      api.requests.length === 1 && api.requests[0]!.authorization === 'Bearer sk-e2e-key',
      'the images API did not get one request with the key',
    );
    await expectHeaderBalance(page, '9', 'balance after one image');
    await ctx.screenshot(page, 'tool-generate-images-api-1280');

    await page.getByRole('button', { name: 'Start over' }).click();
    await generateOnce(page, 'something the provider refuses [[declined]]');
    const status = page.locator('[data-testid="job-status"][data-status="failed"]');
    await status.waitFor({ timeout: JOB_MS });
    await status.getByText('The image service declined this prompt.').waitFor();
    await page.getByTestId('job-refunded').waitFor();
    await page.waitForFunction(`document.querySelector('[data-testid="balance"]')?.textContent?.includes('9')`);
    await expectHeaderBalance(page, '9', 'balance after the refund');
    await shots(ctx, page, 'tool-generate-declined');
  } finally {
    // The next tests expect a worker without generation, as at the start of this one.
    await workers.start();
    if (page) await waitForTool(page, 'remove-background', true);
    await api.close();
  }
});
