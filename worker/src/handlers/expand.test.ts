import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import pino from 'pino';
import sharp from 'sharp';
import {
  EXPAND_DEFAULT_PROMPT,
  EXPAND_MESSAGES,
  type ExpandPayload,
  WORKER_USER_MESSAGES,
  jobResultSchema,
  userFailureMessage,
} from '@imagestudio/contracts';
import { loadWorkerConfig } from '../config';
import { FakeImagesApi } from '../generation-api/test-support/fake-images-api';
import { type DecodedImage, decodeImage } from '../imaging/decode';
import { FEATHER_PX } from '../pipelines/expand';
import type { WorkerStorage } from '../storage/storage';
import { startLocalStorage, type LocalS3 } from '../test-support/local-s3';
import { FIXTURES } from '../test-support/models';
import type { InferenceRuntime } from '../inference';
import { expandTool, loadExpandTool } from './expand';
import { type JobContext, type Tool, isUnavailable } from './types';

// The Expand tool against a local fake of the images API (it paints solid #d2452a) and a local S3 (s3rver).
const BUCKET = 'expand-test';
/** A 300x200 photo. */
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const PAINT = [0xd2, 0x45, 0x2a];
const logger = pino({ level: 'silent' });
let s3: LocalS3;
let storage: WorkerStorage;
let api: FakeImagesApi;
let tool: Tool<'expand'>;

beforeAll(async () => {
  ({ s3, storage } = await startLocalStorage(BUCKET));
  api = await FakeImagesApi.start();
  tool = expandTool({
    baseUrl: api.baseUrl,
    model: 'gpt-image-1',
    timeoutMs: 10_000,
    logger,
    backoffMs: 10,
    maxAttempts: 2,
  });
}, 60_000);

afterAll(async () => {
  await api.close();
  storage.close();
  await s3.stop();
});

beforeEach(() => {
  api.requests.length = 0;
  api.queue.length = 0;
  api.reply = { kind: 'images' };
});

async function run(overrides: Partial<ExpandPayload> = {}, input: Buffer = COFFEE) {
  const payload: ExpandPayload = {
    jobId: randomUUID(),
    userId: randomUUID(),
    inputKey: `inputs/${randomUUID()}.png`,
    aspect: '16:9',
    position: 'center',
    prompt: EXPAND_DEFAULT_PROMPT,
    outputFormat: 'png',
    ...overrides,
  };
  await storage.put(payload.inputKey, input, 'image/png');
  const ctx: JobContext<'expand'> = {
    payload,
    storage,
    logger,
    progress: async () => undefined,
    checkCancelled: async () => undefined,
  };
  const result = jobResultSchema.parse(await tool.run(ctx));
  const file = await storage.get(result.files[0]!.key);
  return { result, file, out: await decodeImage(file) };
}

async function failure(overrides: Partial<ExpandPayload>, input?: Buffer): Promise<Error> {
  return run(overrides, input).then(
    () => new Error('the job succeeded'),
    (e: unknown) => e as Error,
  );
}

/**
 * Compares the photo's area of the result with the photo: every pixel farther than FEATHER_PX from an edge that
 * meets new area must be the same bit for bit (RGBA); the band's pixels must lie between photo and paint.
 */
function comparePhotoArea(
  out: DecodedImage,
  photo: DecodedImage,
  at: { left: number; top: number },
  seams: { left: boolean; right: boolean; top: boolean; bottom: boolean },
) {
  let exact = 0;
  let band = 0;
  const off: string[] = [];
  for (let y = 0; y < photo.height; y++) {
    for (let x = 0; x < photo.width; x++) {
      const d = Math.min(
        seams.left ? x : Infinity,
        seams.right ? photo.width - 1 - x : Infinity,
        seams.top ? y : Infinity,
        seams.bottom ? photo.height - 1 - y : Infinity,
      );
      const src = (y * photo.width + x) * 4;
      const dst = ((at.top + y) * out.width + at.left + x) * 4;
      for (let c = 0; c < 4; c++) {
        const own = photo.data[src + c]!;
        const got = out.data[dst + c]!;
        if (d >= FEATHER_PX || c === 3) {
          if (got !== own) off.push(`${x},${y}`);
          continue;
        }
        // The painting's share falls from (FEATHER_PX)/(FEATHER_PX+1) at the edge to none.
        const share = (FEATHER_PX - d) / (FEATHER_PX + 1);
        if (Math.abs(got - (own * (1 - share) + PAINT[c]! * share)) > 1) off.push(`band ${x},${y}`);
      }
      if (d >= FEATHER_PX) exact += 1;
      else band += 1;
    }
  }
  return { exact, band, off: [...new Set(off)].slice(0, 10) };
}

describe('Expand', () => {
  it('sends the photo on the wider canvas with a mask transparent exactly on the new area, and puts the photo back', async () => {
    const photo = await decodeImage(COFFEE);
    const { result, out } = await run();
    // 300x200 to 16:9: a 356x200 canvas, the photo 28 pixels from the left.
    expect(result.files[0]).toMatchObject({ width: 356, height: 200, format: 'png' });
    expect(result.provider).toBe('remote:gpt-image-1');

    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0]!;
    expect(sent.endpoint).toBe('edits');
    expect(sent.body).toMatchObject({ prompt: EXPAND_DEFAULT_PROMPT, n: 1, model: 'gpt-image-1', size: '1536x1024' });
    // gpt-image-1 takes 3:2 at most: the 356x200 canvas sits centred in a 356x237 frame of that shape (the frame's
    // margin is painted too and cut away), so the photo is at x 28-328, y 18-218 of the frame, 1536/356 API pixels each.
    const mask = await sharp(sent.body.mask!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const image = await sharp(sent.body.image!).raw().toBuffer({ resolveWithObject: true });
    expect([mask.info.width, mask.info.height, image.info.width, image.info.height]).toEqual([1536, 1024, 1536, 1024]);
    const [sx, sy] = [1536 / 356, 1024 / 237];
    let opaque = 0;
    let clear = 0;
    const wrong: string[] = [];
    for (let y = 0; y < 1024; y++) {
      for (let x = 0; x < 1536; x++) {
        // The pixel's centre in frame pixels, and how far inside the photo's rectangle it is (negative: outside).
        const [fx, fy] = [(x + 0.5) / sx, (y + 0.5) / sy];
        const inside = Math.min(fx - 28, 328 - fx, fy - 18, 218 - fy);
        const alpha = mask.data[(y * 1536 + x) * 4 + 3]!;
        // A pixel whose centre lies on the photo's edge can go either way; one frame pixel off it cannot.
        if (inside > 1) {
          opaque += 1;
          if (alpha !== 255) wrong.push(`${x},${y}=${alpha}`);
        } else if (inside < -1) {
          clear += 1;
          if (alpha !== 0) wrong.push(`${x},${y}=${alpha}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(opaque).toBeGreaterThan(1200 * 800);
    expect(clear).toBeGreaterThan(1536 * 1024 - 1320 * 880);
    // The picture shows the photo where the mask keeps it: its middle is the photo's middle.
    const mid = (Math.round(118 * sy) * 1536 + Math.round(178 * sx)) * image.info.channels;
    const own = (100 * 300 + 150) * 4;
    for (let c = 0; c < 3; c++) expect(Math.abs(image.data[mid + c]! - photo.data[own + c]!)).toBeLessThan(24);

    // The result: the paint on the new area (the fake's colour), the photo's pixels back where they were.
    expect([...out.data.subarray(0, 3)]).toEqual(PAINT);
    expect([...out.data.subarray((200 * 356 - 1) * 4, (200 * 356 - 1) * 4 + 3)]).toEqual(PAINT);
    const seams = { left: true, right: true, top: false, bottom: false };
    const compared = comparePhotoArea(out, photo, { left: 28, top: 0 }, seams);
    expect(compared).toEqual({ exact: (300 - 2 * FEATHER_PX) * 200, band: 2 * FEATHER_PX * 200, off: [] });
  }, 60_000);

  it('grows both sides by a factor with the photo against the left edge, in the asked format and prompt', async () => {
    const photo = await decodeImage(COFFEE);
    const { result, out } = await run({
      aspect: undefined,
      factor: 2,
      position: 'left',
      outputFormat: 'webp',
      prompt: 'a beach',
    });
    // 600x400, the photo at x 0 and centred from top to bottom: no seam on its left side.
    expect(result.files[0]).toMatchObject({ width: 600, height: 400, format: 'webp' });
    expect(api.requests[0]!.body).toMatchObject({ prompt: 'a beach', size: '1536x1024' });
    const seams = { left: false, right: true, top: true, bottom: true };
    const compared = comparePhotoArea(out, photo, { left: 0, top: 100 }, seams);
    expect(compared.off).toEqual([]);
    expect(compared.exact).toBe((300 - FEATHER_PX) * (200 - 2 * FEATHER_PX));
    expect([...out.data.subarray((399 * 600 + 599) * 4, (399 * 600 + 599) * 4 + 3)]).toEqual(PAINT);
  }, 60_000);

  it("keeps the photo's ICC profile and its unconverted pixels, and its alpha on the photo's area", async () => {
    const input = await sharp(COFFEE).ensureAlpha(0.5).withIccProfile('p3').png().toBuffer();
    const icc = (await sharp(input).metadata()).icc!;
    const photo = await decodeImage(input);
    const { result, file, out } = await run({ aspect: '9:16', position: 'top' }, input);
    // 300x200 to 9:16: 300x533, the photo at the top.
    expect(result.files[0]).toMatchObject({ width: 300, height: 533 });
    expect((await sharp(file).metadata()).icc?.equals(icc)).toBe(true);
    const compared = comparePhotoArea(
      out,
      photo,
      { left: 0, top: 0 },
      { left: false, right: false, top: false, bottom: true },
    );
    expect(compared.off).toEqual([]);
    expect(out.data[(300 * 300 + 10) * 4 + 3]).toBe(255);
  }, 60_000);

  it('refuses a photo already at the size limit without calling the API', async () => {
    const wide = await sharp({ create: { width: 4096, height: 40, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const err = await failure({ aspect: '1:1' }, wide);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(err.message).toBe(EXPAND_MESSAGES.photoTooLarge('4096x40'));
    expect(api.requests).toHaveLength(0);
  }, 60_000);

  it('fails the job, unrecoverably and with the plain message, when the images API keeps failing', async () => {
    api.reply = { kind: 'error', status: 500, code: 'server_error', message: 'The server had an error.' };
    const err = await failure({});
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(userFailureMessage(err.message)).toBe(WORKER_USER_MESSAGES.serviceFailed);
    expect(api.requests).toHaveLength(2);
  }, 60_000);

  it('is not offered without an images API', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:4568' });
    const loaded = await loadExpandTool({ config, runtime: {} as InferenceRuntime, logger });
    expect(isUnavailable(loaded) && loaded.unavailable).toBe('GENERATION_API_URL is not set');
  });
});
