import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import pino from 'pino';
import sharp from 'sharp';
import {
  ERASE_DEFAULT_PROMPT,
  ERASE_MESSAGES,
  type ErasePayload,
  WORKER_USER_MESSAGES,
  jobResultSchema,
  userFailureMessage,
} from '@imagestudio/contracts';
import { loadWorkerConfig } from '../config';
import { FakeImagesApi } from '../generation-api/test-support/fake-images-api';
import type { ImagesApiOptions } from '../generation-api/images-api';
import type { WorkerStorage } from '../storage/storage';
import { startLocalStorage, type LocalS3 } from '../test-support/local-s3';
import { FIXTURES, MODELS_DIR } from '../test-support/models';
import { eraseTool, loadEraseTool } from './erase';
import { type JobContext, isUnavailable } from './types';

// The erase tool against a local fake of the images API and S3 (s3rver): what it sends, and what it keeps.
const BUCKET = 'erase-test';
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const [W, H] = [300, 200];
/** The painted rectangle, in photo pixels: x in [100, 180), y in [50, 130). */
const AREA = { left: 100, top: 50, width: 80, height: 80 };
const inArea = (x: number, y: number) =>
  x >= AREA.left && x < AREA.left + AREA.width && y >= AREA.top && y < AREA.top + AREA.height;
/** The fake's first colour, which it paints its whole answer in. */
const FILL = [0xd2, 0x45, 0x2a];
const logger = pino({ level: 'silent' });
let s3: LocalS3;
let storage: WorkerStorage;
let api: FakeImagesApi;

beforeAll(async () => {
  ({ s3, storage } = await startLocalStorage(BUCKET));
  api = await FakeImagesApi.start();
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

/** A mask as the page sends it: white and opaque on the painted area, transparent elsewhere, at `scale` x the photo. */
function maskPng(scale = 1, area = AREA): Promise<Buffer> {
  const s = (v: number) => Math.round(v * scale);
  return sharp({ create: { width: s(W), height: s(H), channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: { create: { width: s(area.width), height: s(area.height), channels: 4, background: '#ffffff' } },
        left: s(area.left),
        top: s(area.top),
      },
    ])
    .png()
    .toBuffer();
}

function tool(model = 'gpt-image-1') {
  const options: ImagesApiOptions = {
    baseUrl: api.baseUrl,
    model,
    timeoutMs: 10_000,
    logger,
    backoffMs: 10,
    maxAttempts: 2,
  };
  return eraseTool(options);
}

async function run(mask: Buffer, overrides: Partial<ErasePayload> = {}, model?: string) {
  const payload: ErasePayload = {
    jobId: randomUUID(),
    userId: randomUUID(),
    inputKey: `inputs/${randomUUID()}.png`,
    maskKey: `inputs/${randomUUID()}-mask.png`,
    prompt: ERASE_DEFAULT_PROMPT,
    outputFormat: 'png',
    ...overrides,
  };
  await storage.put(payload.inputKey, COFFEE, 'image/png');
  await storage.put(payload.maskKey, mask, 'image/png');
  const ctx: JobContext<'erase'> = {
    payload,
    storage,
    logger,
    progress: async () => undefined,
    checkCancelled: async () => undefined,
  };
  const result = jobResultSchema.parse(await tool(model).run(ctx));
  return { result, image: await storage.get(result.files[0]!.key) };
}

const rgb = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer();

describe('erase', () => {
  it('sends the photo and a mask transparent exactly on the painted area; keeps every pixel outside it', async () => {
    // A model that takes any size: the API gets the photo's own size, so the mask can be compared pixel for pixel.
    const { result, image } = await run(await maskPng(), {}, 'local-inpaint');
    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0]!;
    expect(sent.endpoint).toBe('edits');
    expect(sent.body).toMatchObject({ prompt: ERASE_DEFAULT_PROMPT, n: 1, model: 'local-inpaint', size: '300x200' });
    expect(await rgb(sent.body.image!)).toEqual(await rgb(COFFEE));
    const mask = await sharp(sent.body.mask!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([mask.info.width, mask.info.height]).toEqual([W, H]);
    const wrong: number[] = [];
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) if (mask.data[(y * W + x) * 4 + 3] !== (inArea(x, y) ? 0 : 255)) wrong.push(x, y);
    expect(wrong).toEqual([]);

    expect(result.files[0]).toMatchObject({ width: W, height: H, format: 'png' });
    expect(result.provider).toBe('remote:local-inpaint');
    const out = await rgb(image);
    const src = await rgb(COFFEE);
    let outside = 0;
    let filled = 0;
    const changedOutside: number[] = [];
    const unfilled: number[] = [];
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        const px = [...out.subarray(i, i + 3)];
        if (!inArea(x, y)) {
          outside += 1;
          if (px.join() !== [...src.subarray(i, i + 3)].join()) changedOutside.push(x, y);
        } else if (inArea(x - 8, y - 8) && inArea(x + 8, y + 8)) {
          // Past the feather (a few pixels inside the edge), the API's pixels as they came.
          filled += 1;
          if (px.join() !== FILL.join()) unfilled.push(x, y);
        }
      }
    expect(outside).toBe(W * H - AREA.width * AREA.height);
    expect(changedOutside).toEqual([]);
    expect(filled).toBe(64 * 64);
    expect(unfilled).toEqual([]);
    // The feather: at the painted area's edge the fill is blended with the photo, neither one nor the other.
    const edge = (AREA.top + 40) * W + AREA.left;
    const blended = [...out.subarray(edge * 3, edge * 3 + 3)];
    expect(blended).not.toEqual(FILL);
    expect(blended).not.toEqual([...src.subarray(edge * 3, edge * 3 + 3)]);
  }, 60_000);

  it("asks a sized model for its nearest size and takes a mask at another scale; the user's prompt and format", async () => {
    const { result, image } = await run(await maskPng(0.5), { prompt: 'a wooden table', outputFormat: 'webp' });
    const sent = api.requests[0]!;
    // gpt-image-1 takes 1536x1024 for a 3:2 photo; the fake answers at that size and is scaled back.
    expect(sent.body).toMatchObject({ size: '1536x1024', prompt: 'a wooden table' });
    const mask = await sharp(sent.body.mask!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([mask.info.width, mask.info.height]).toEqual([1536, 1024]);
    const alpha = (x: number, y: number) => mask.data[(y * 1536 + x) * 4 + 3];
    // The painted area is (512-921, 256-665) at this size: inside it transparent, around it opaque.
    expect([alpha(700, 450), alpha(520, 270), alpha(910, 650)]).toEqual([0, 0, 0]);
    expect([alpha(500, 450), alpha(935, 450), alpha(700, 240), alpha(5, 5)]).toEqual([255, 255, 255, 255]);
    expect(result.files[0]).toMatchObject({ width: W, height: H, format: 'webp' });
    // WebP is lossless here: outside the painted area (away from it by the scaled mask's soft edge) the photo.
    const out = await rgb(image);
    const src = await rgb(COFFEE);
    for (const [x, y] of [
      [10, 10],
      [290, 190],
      [95, 90],
      [140, 45],
    ] as const)
      expect([...out.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)]).toEqual([
        ...src.subarray((y * W + x) * 3, (y * W + x) * 3 + 3),
      ]);
    expect([...out.subarray((90 * W + 140) * 3, (90 * W + 140) * 3 + 3)]).toEqual(FILL);
  }, 60_000);

  it('fails an empty mask with its plain message before calling the API', async () => {
    const empty = await sharp({ create: { width: W, height: H, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const err = await run(empty).then(
      () => new Error('the job succeeded'),
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(err.message).toBe(ERASE_MESSAGES.maskEmpty);
    expect(api.requests).toHaveLength(0);
  }, 60_000);

  it('fails the job, unrecoverably and with the plain message, when the images API keeps failing', async () => {
    api.reply = { kind: 'error', status: 500, code: 'server_error', message: 'The server had an error.' };
    const err = await run(await maskPng()).then(
      () => new Error('the job succeeded'),
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(userFailureMessage(err.message)).toBe(WORKER_USER_MESSAGES.serviceFailed);
    expect(api.requests).toHaveLength(2);
  }, 60_000);

  it('is not offered without an images API', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:4568', MODELS_DIR });
    const loaded = await loadEraseTool({ config, runtime: undefined as never, logger });
    expect(isUnavailable(loaded) && loaded.unavailable).toBe('GENERATION_API_URL is not set');
  });
});
