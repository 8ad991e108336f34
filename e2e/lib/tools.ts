/** Helpers of the tool tests: photos, the real worker, a job that keeps it busy, the header balance, screenshots. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { JOB_NAMES, type JobName } from '@imagestudio/contracts';
import { buildTinyGenerationModel } from '../../worker/src/generation/test-support/tiny-model';
import { FakeImagesApi } from '../../worker/src/generation-api/test-support/fake-images-api';
import { check, type E2EContext } from './harness';
import { xsrfToken } from './users';
import type { WorkerControl } from './worker-process';

const PHOTOS = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'photos');
const FIXTURES = fs.existsSync(PHOTOS) ? PHOTOS : path.resolve(__dirname, '..', '..', 'client', 'public', 'examples');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-tools-'));

/**
 * A small copy of a fixture photo (CPU upscaling stays quick), named after `name`. The site's example copies
 * call the motorcycle photo plain `motorcycle`, so a checkout without the full-size photos still finds it.
 */
export async function smallPhoto(name: string, width: number): Promise<string> {
  const source = [name, name.replace(/_left$/, '')]
    .flatMap((base) => ['png', 'webp'].map((ext) => path.join(FIXTURES, `${base}.${ext}`)))
    .find((f) => fs.existsSync(f));
  if (!source) throw new Error(`fixture ${name} not found in ${FIXTURES}`);
  const out = path.join(TMP, `${name}-${width}.png`);
  await sharp(source).resize({ width }).png().toFile(out);
  return out;
}

let tinyModel: Promise<string> | null = null;
let imagesApi: Promise<FakeImagesApi> | null = null;

/**
 * A worker that runs every tool (generation with the tiny test model, the AI background through a local fake of
 * the images API), started unless one already runs; returns once `page` (any page of the app) sees every tool of
 * `JOB_NAMES` available.
 */
export async function allToolsWorker(workers: WorkerControl, page: Page): Promise<void> {
  tinyModel ??= buildTinyGenerationModel(path.join(TMP, 'tiny-generation'));
  imagesApi ??= FakeImagesApi.start();
  await workers.ensure({
    GENERATION_MODEL_DIR: await tinyModel,
    // Generation stays on the tiny model; the API serves the tools that need one.
    GENERATION_BACKEND: 'onnx',
    GENERATION_API_URL: (await imagesApi).baseUrl,
  });
  for (const tool of JOB_NAMES) await waitForTool(page, tool, true);
}

/** Waits until /api/tools/status says `tool` is (or is not) available: the worker's heartbeat is in. */
export async function waitForTool(page: Page, tool: JobName, available: boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await page.context().request.get('/api/tools/status');
    const body = (await res.json()) as { payload?: Record<string, { available: boolean }> };
    if (body.payload?.[tool]?.available === available) return;
    await page.waitForTimeout(500);
  }
  throw new Error(`tool ${tool} did not become ${available ? 'available' : 'unavailable'} within ${timeoutMs} ms`);
}

export async function headerBalance(page: Page): Promise<string> {
  return ((await page.getByTestId('balance').first().textContent()) ?? '').replace('Tokens:', '').trim();
}

/**
 * Waits up to 10 s for the header to show `expected` tokens (right after a navigation it may still be loading the
 * profile); fails naming what it showed last.
 */
export async function expectHeaderBalance(page: Page, expected: string, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = await headerBalance(page);
  while (seen !== expected && Date.now() < deadline) {
    await page.waitForTimeout(200);
    seen = await headerBalance(page);
  }
  check(seen === expected, `${what}: the header shows "${seen}" tokens, expected ${expected}`);
}

/** Both widths of one page state, for the artifacts. */
export async function shots(ctx: E2EContext, page: Page, name: string): Promise<void> {
  await ctx.screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.waitForTimeout(200);
  await ctx.screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Starts a long upscale (a 1600 px photo, x4) through the API as the signed-in user of `page`, so that the
 * single worker is busy and the jobs submitted next wait in the queue; returns the job's id.
 */
export async function startBusyUpscale(page: Page): Promise<string> {
  const xsrf = await xsrfToken(page);
  const busy = await page.context().request.post('/api/tools/upscale', {
    headers: { 'X-XSRF-TOKEN': xsrf },
    multipart: {
      image: {
        name: 'busy.png',
        mimeType: 'image/png',
        buffer: fs.readFileSync(await smallPhoto('motorcycle_left', 1600)),
      },
      factor: '4',
    },
  });
  check(busy.status() === 202, `busy job answered ${busy.status()}`);
  return ((await busy.json()) as { payload: { id: string } }).payload.id;
}
