import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { UnrecoverableError } from 'bullmq';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import {
  AI_BACKGROUND_PRESETS,
  type AiBackgroundPayload,
  WORKER_USER_MESSAGES,
  jobResultSchema,
  userFailureMessage,
} from '@imagestudio/contracts';
import { loadWorkerConfig } from '../config';
import { FakeImagesApi } from '../generation-api/test-support/fake-images-api';
import { decodeImage } from '../imaging/decode';
import { refineMatte } from '../imaging/matte-refinement';
import type { InferenceRuntime, ModelSession } from '../inference';
import { predictAlpha } from '../pipelines/remove-background';
import type { WorkerStorage } from '../storage/storage';
import { startLocalStorage, type LocalS3 } from '../test-support/local-s3';
import { FIXTURES, MODELS_DIR, mattingModel, startCpuRuntime } from '../test-support/models';
import { aiBackgroundTool, loadAiBackgroundTool } from './ai-background';
import { type JobContext, type Tool, isUnavailable } from './types';

// The AI background tool on the real matting model (CPU), a local fake of the images API and S3 (s3rver).
const BUCKET = 'ai-background-test';
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const logger = pino({ level: 'silent' });
const { model, file } = mattingModel();
let runtime: InferenceRuntime;
let session: ModelSession;
let s3: LocalS3;
let storage: WorkerStorage;
let api: FakeImagesApi;
let tool: Tool<'ai-background'>;

beforeAll(async () => {
  runtime = await startCpuRuntime();
  session = await runtime.load(file);
  ({ s3, storage } = await startLocalStorage(BUCKET));
  api = await FakeImagesApi.start();
  tool = aiBackgroundTool(session, model, {
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
  await runtime.close();
});

beforeEach(() => {
  api.requests.length = 0;
  api.queue.length = 0;
  api.reply = { kind: 'images' };
});

async function run(overrides: Partial<AiBackgroundPayload> = {}) {
  const payload: AiBackgroundPayload = {
    jobId: randomUUID(),
    userId: randomUUID(),
    inputKey: `inputs/${randomUUID()}.png`,
    prompt: AI_BACKGROUND_PRESETS.marble,
    outputFormat: 'png',
    ...overrides,
  };
  await storage.put(payload.inputKey, COFFEE, 'image/png');
  const ctx: JobContext<'ai-background'> = {
    payload,
    storage,
    logger,
    progress: async () => undefined,
    checkCancelled: async () => undefined,
  };
  const result = jobResultSchema.parse(await tool.run(ctx));
  return { result, image: await storage.get(result.files[0]!.key) };
}

describe('AI background', () => {
  it("sends the photo, a mask opaque on the subject and the preset's prompt; keeps the subject's own pixels", async () => {
    const { result, image } = await run();
    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0]!;
    expect(sent.endpoint).toBe('edits');
    expect(sent.body).toMatchObject({ prompt: AI_BACKGROUND_PRESETS.marble, n: 1, model: 'gpt-image-1' });
    // gpt-image-1 takes 1536x1024 for a 3:2 photo.
    expect(sent.body.size).toBe('1536x1024');
    const photo = await sharp(sent.body.image!).metadata();
    expect([photo.format, photo.width, photo.height]).toEqual(['png', 1536, 1024]);
    // The mask: the cup (middle) kept, the corners to be painted.
    const mask = await sharp(sent.body.mask!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([mask.info.width, mask.info.height]).toEqual([1536, 1024]);
    const maskAlpha = (x: number, y: number) => mask.data[(y * 1536 + x) * 4 + 3];
    expect(maskAlpha(768, 460)).toBe(255);
    expect([maskAlpha(5, 5), maskAlpha(1530, 5), maskAlpha(5, 1018), maskAlpha(1530, 1018)]).toEqual([0, 0, 0, 0]);

    // The result: the photo's size, the fake's red background outside the cup, the cup's pixels untouched.
    expect(result.files[0]).toMatchObject({ width: 300, height: 200, format: 'png' });
    const out = await sharp(image).removeAlpha().raw().toBuffer();
    const src = await sharp(COFFEE).removeAlpha().raw().toBuffer();
    expect([...out.subarray(0, 3)]).toEqual([0xd2, 0x45, 0x2a]);
    // The matte the pipeline composed with: the same model and refinement on the same photo.
    const decoded = await decodeImage(COFFEE);
    const matte = refineMatte(await predictAlpha(session, model, decoded), decoded);
    let compared = 0;
    let opaque = 0;
    const off: number[] = [];
    for (let i = 0; i < 300 * 200; i++) {
      const a = matte[i]!;
      if (a < 250) continue;
      compared += 1;
      if (a === 255) opaque += 1;
      // Fully opaque: the very same pixel. Nearly: the background shows through by at most its share (255 - a).
      for (let c = 0; c < 3; c++)
        if (Math.abs(out[i * 3 + c]! - src[i * 3 + c]!) > (a === 255 ? 0 : 256 - a)) off.push(i);
    }
    expect(compared).toBeGreaterThan(5000);
    expect(opaque).toBeGreaterThan(5000);
    expect(off).toEqual([]);
  }, 60_000);

  it('keeps the asked size and output format', async () => {
    const { result } = await run({ size: '1024x1024', outputFormat: 'webp', prompt: 'a beach' });
    expect(api.requests[0]!.body).toMatchObject({ size: '1024x1024', prompt: 'a beach' });
    expect(result.files[0]).toMatchObject({ width: 300, height: 200, format: 'webp' });
  }, 60_000);

  it('fails the job, unrecoverably and with the plain message, when the images API keeps failing', async () => {
    api.reply = { kind: 'error', status: 500, code: 'server_error', message: 'The server had an error.' };
    const err = await run().then(
      () => new Error('the job succeeded'),
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(userFailureMessage(err.message)).toBe(WORKER_USER_MESSAGES.serviceFailed);
    expect(api.requests).toHaveLength(2);
  }, 60_000);

  it('is not offered without an images API', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:4568', MODELS_DIR });
    const loaded = await loadAiBackgroundTool({ config, runtime, logger });
    expect(isUnavailable(loaded) && loaded.unavailable).toBe('GENERATION_API_URL is not set');
  });
});
