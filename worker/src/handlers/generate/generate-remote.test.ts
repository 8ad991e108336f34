import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import pino from 'pino';
import sharp from 'sharp';
import {
  type GeneratePayload,
  type JobResult,
  WORKER_USER_MESSAGES,
  jobResultSchema,
  userFailureMessage,
} from '@imagestudio/contracts';
import { ConfigError } from '@imagestudio/runtime';
import { loadWorkerConfig } from '../../config';
import { isPublicAddress } from '../../generation-api/fetch-image';
import { retryAfterMs } from '../../generation-api/images-api';
import { FakeImagesApi } from '../../generation-api/test-support/fake-images-api';
import { pngChunks } from '@imagestudio/runtime/imaging';
import { InferenceRuntime } from '../../inference';
import { JobCancelledError } from '../../queue/errors';
import type { WorkerStorage } from '../../storage/storage';
import { startLocalStorage, type LocalS3 } from '../../test-support/local-s3';
import { loadGenerateTool } from './generate';
import { foldPrompt, remoteGenerateTool } from './generate-remote';
import { type JobContext, type Tool, isUnavailable } from '../types';

// The hosted-API generation backend against a local fake of the images API (a real HTTP server) and S3 (s3rver).
const BUCKET = 'gen-remote-test';
const KEY = 'sk-test-0123456789abcdef';
let tmp: string;
let s3: LocalS3;
let storage: WorkerStorage;
let api: FakeImagesApi;
let logLines: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'debug' },
  { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
);

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gen-remote-'));
  ({ s3, storage } = await startLocalStorage(BUCKET));
  api = await FakeImagesApi.start();
});

afterAll(async () => {
  await api.close();
  storage.close();
  await s3.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  api.requests.length = 0;
  api.queue.length = 0;
  api.reply = { kind: 'images' };
  api.key = KEY;
  logLines = [];
});

function tool(model = 'gpt-image-1', extra: { timeoutMs?: number; maxImageBytes?: number } = {}): Tool<'generate'> {
  return remoteGenerateTool({
    baseUrl: api.baseUrl,
    key: KEY,
    model,
    timeoutMs: extra.timeoutMs ?? 10_000,
    logger,
    backoffMs: 20,
    maxImageBytes: extra.maxImageBytes,
  });
}

interface Run {
  result: JobResult;
  pngs: Buffer[];
  stages: string[];
}

async function run(
  t: Tool<'generate'>,
  overrides: Partial<GeneratePayload> = {},
  cancelAfterChecks?: number,
): Promise<Run> {
  const payload: GeneratePayload = {
    jobId: randomUUID(),
    userId: randomUUID(),
    prompt: 'a lighthouse at dusk',
    count: 1,
    width: 256,
    height: 256,
    seed: 500,
    ...overrides,
  };
  const stages: string[] = [];
  let checks = 0;
  const ctx: JobContext<'generate'> = {
    payload,
    storage,
    logger,
    progress: async (_percent, stage) => void stages.push(stage),
    checkCancelled: async () => {
      checks += 1;
      if (cancelAfterChecks !== undefined && checks > cancelAfterChecks) throw new JobCancelledError();
    },
  };
  const result = jobResultSchema.parse(await t.run(ctx));
  return { result, pngs: await Promise.all(result.files.map((f) => storage.get(f.key))), stages };
}

/** The job's failure: an UnrecoverableError (no BullMQ retry) whose user-facing part is returned. */
async function failure(promise: Promise<unknown>): Promise<{ user: string; reason: string }> {
  const err = await promise.then(
    () => {
      throw new Error('the job succeeded');
    },
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(UnrecoverableError);
  return { user: userFailureMessage(err.message), reason: err.message };
}

const centreColour = async (png: Buffer) =>
  [...(await sharp(png).extract({ left: 8, top: 8, width: 1, height: 1 }).raw().toBuffer())].slice(0, 3);

describe('configuration', () => {
  const base = { S3_ENDPOINT: 'http://127.0.0.1:4568' };

  it('advertises generate as remote:<model> with GENERATION_API_URL, and needs GENERATION_BACKEND when both backends are set', async () => {
    const runtime = {} as InferenceRuntime;
    const config = loadWorkerConfig({ ...base, GENERATION_API_URL: api.baseUrl, GENERATION_API_KEY: KEY });
    expect([
      config.GENERATION_BACKEND,
      config.GENERATION_API_MODEL,
      config.GENERATION_API_CONCURRENCY,
      config.GENERATION_API_TIMEOUT_S,
    ]).toEqual(['api', 'gpt-image-1', 4, 120]);
    const loaded = await loadGenerateTool({ config, runtime, logger });
    expect(isUnavailable(loaded) ? loaded.unavailable : loaded.provider).toBe('remote:gpt-image-1');
    // Loading calls nothing: a call costs money.
    expect(api.requests).toHaveLength(0);

    expect(() => loadWorkerConfig({ ...base, GENERATION_API_URL: api.baseUrl, GENERATION_MODEL_DIR: tmp })).toThrow(
      /GENERATION_BACKEND: is required when both/,
    );
    expect(
      loadWorkerConfig({
        ...base,
        GENERATION_API_URL: api.baseUrl,
        GENERATION_MODEL_DIR: tmp,
        GENERATION_BACKEND: 'onnx',
      }).GENERATION_BACKEND,
    ).toBe('onnx');
    expect(() => loadWorkerConfig({ ...base, GENERATION_BACKEND: 'api' })).toThrow(/GENERATION_API_URL: is required/);
    expect(() => loadWorkerConfig({ ...base, GENERATION_API_URL: 'ftp://example.com/v1' })).toThrow(ConfigError);
    expect(loadWorkerConfig({ ...base, WORKER_TOOLS: 'generate, upscale' }).WORKER_TOOLS).toEqual([
      'generate',
      'upscale',
    ]);
    expect(() => loadWorkerConfig({ ...base, WORKER_TOOLS: 'generate,paint' })).toThrow(/WORKER_TOOLS/);
    const none = await loadGenerateTool({ config: loadWorkerConfig(base), runtime, logger });
    expect(none).toEqual({ unavailable: 'neither GENERATION_MODEL_DIR nor GENERATION_API_URL is set' });
  });
});

describe('generate through an OpenAI-compatible images API (local fake, real HTTP)', () => {
  it('b64 reply: one call for all images, the key as Bearer, resized to the request, PNG with provenance naming the model', async () => {
    const { result, pngs, stages } = await run(tool(), {
      count: 2,
      width: 512,
      height: 512,
      style: 'watercolor',
      negativePrompt: 'text',
    });
    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0]!;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      model: 'gpt-image-1',
      prompt: expect.stringContaining('a lighthouse at dusk'),
      n: 2,
      size: '1024x1024',
    });
    // The style preset and the negative prompt are folded into the one prompt.
    expect(sent.body.prompt).toMatch(/watercolor/i);
    expect(sent.body.prompt).toMatch(/\n\nAvoid: text, .+\.$/);
    expect(result.provider).toBe('remote:gpt-image-1');
    expect(result.files.map((f) => [f.key.split('/').at(-1), f.width, f.height, f.format, f.seed])).toEqual([
      ['0.png', 512, 512, 'png', undefined],
      ['1.png', 512, 512, 'png', undefined],
    ]);
    expect(result.notes).toEqual([
      'generated at 1024x1024 by remote:gpt-image-1 and resized to 512x512',
      'the seed was not used: remote:gpt-image-1 takes no seed',
    ]);
    expect(stages).toEqual(['processing 2/2', 'saving', 'saving']);
    expect(await centreColour(pngs[0]!)).toEqual([0xd2, 0x45, 0x2a]);
    expect(await centreColour(pngs[1]!)).toEqual([0x2a, 0x7f, 0xd2]);
    const meta = await sharp(pngs[0]!).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', 512, 512, 3]);
    const xmp = pngChunks(pngs[0]!)
      .find((c) => c.type === 'iTXt')!
      .data.toString('utf8');
    expect(xmp).toContain('digitalsourcetype/trainedAlgorithmicMedia');
    expect(xmp).toContain('xmp:CreatorTool="imagestudio generate (remote:gpt-image-1)"');
  });

  it('URL reply: the image is fetched from the API host', async () => {
    api.reply = { kind: 'images', as: 'url' };
    const { result, pngs } = await run(tool('any-server-model'), { count: 1, width: 320, height: 192 });
    expect(api.requests[0]!.body).toEqual({
      model: 'any-server-model',
      prompt: 'a lighthouse at dusk',
      n: 1,
      size: '320x192',
      seed: 500,
    });
    expect(result.files[0]).toMatchObject({ width: 320, height: 192, seed: 500 });
    expect(result.notes).toEqual([]);
    expect(await centreColour(pngs[0]!)).toEqual([0xd2, 0x45, 0x2a]);
  });

  it('a model that takes a seed gets one call per image with seed + n', async () => {
    const { result } = await run(tool('sd-server'), { count: 3, seed: 41 });
    expect(api.requests.map((r) => [r.body.n, r.body.seed])).toEqual([
      [1, 41],
      [1, 42],
      [1, 43],
    ]);
    expect(result.files.map((f) => f.seed)).toEqual([41, 42, 43]);
  });

  it('a model that takes only n: 1 (dall-e-3) is called once per image, at its nearest size', async () => {
    const { result } = await run(tool('dall-e-3'), { count: 3, width: 640, height: 384 });
    expect(api.requests.map((r) => [r.body.n, r.body.size, r.body.seed])).toEqual([
      [1, '1792x1024', undefined],
      [1, '1792x1024', undefined],
      [1, '1792x1024', undefined],
    ]);
    expect(result.files).toHaveLength(3);
    expect(result.notes[0]).toBe('generated at 1792x1024 by remote:dall-e-3 and resized to 640x384');
  });

  it('learns from 400s naming seed and then n, and says the seed was not used', async () => {
    const t = tool('strict-server');
    api.queue.push(
      { kind: 'error', status: 400, param: 'seed', message: "Unknown parameter: 'seed'." },
      { kind: 'error', status: 400, param: 'n', message: 'n must be 1' },
    );
    const { result } = await run(t, { count: 2 });
    expect(api.requests.map((r) => [r.body.n, r.body.seed])).toEqual([
      [1, 500],
      [2, undefined],
      [1, undefined],
      [1, undefined],
    ]);
    expect(result.notes).toContain('the seed was not used: remote:strict-server takes no seed');
    expect(result.files.every((f) => f.seed === undefined)).toBe(true);
    // Kept for the worker's life: the next job asks the right way at once.
    api.requests.length = 0;
    await run(t, { count: 2 });
    expect(api.requests.map((r) => [r.body.n, r.body.seed])).toEqual([
      [1, undefined],
      [1, undefined],
    ]);
  });

  it('429 then success: waits what Retry-After asks (seconds, then retry-after-ms)', async () => {
    api.queue.push({ kind: 'error', status: 429, code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } });
    await run(tool());
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(logLines.find((l) => l.msg === 'images API busy, retrying')).toMatchObject({ attempt: 1, waitMs: 1000 });

    api.requests.length = 0;
    api.queue.push(
      { kind: 'error', status: 503, headers: { 'retry-after-ms': '300' } },
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '300' } },
    );
    await run(tool());
    expect(api.requests).toHaveLength(3);
    expect(api.requests[2]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(580);
  });

  it('repeated 500: gives up after 4 attempts with backoff, a failure the user reads plainly (refunded by the API)', async () => {
    api.reply = { kind: 'error', status: 500, code: 'server_error', message: 'The server had an error.' };
    const { user, reason } = await failure(run(tool()));
    expect(api.requests).toHaveLength(4);
    expect(user).toBe(WORKER_USER_MESSAGES.serviceFailed);
    expect(reason).toContain('HTTP 500 server_error');
  });

  it('a content-policy refusal fails at once with "The image service declined this prompt."', async () => {
    for (const code of ['content_policy_violation', 'moderation_blocked']) {
      api.requests.length = 0;
      api.queue.push({
        kind: 'error',
        status: 400,
        code,
        message: 'Your request was rejected as a result of our safety system.',
      });
      const { user, reason } = await failure(run(tool(), { count: 2 }));
      expect(api.requests).toHaveLength(1);
      expect(user).toBe('The image service declined this prompt.');
      expect(reason).toContain(code);
    }
  });

  it('a slow reply times out and fails', async () => {
    api.reply = { kind: 'slow', ms: 5000 };
    const started = Date.now();
    const { user } = await failure(run(tool('gpt-image-1', { timeoutMs: 300 })));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(user).toBe(WORKER_USER_MESSAGES.serviceTimedOut);
    expect(api.requests).toHaveLength(1);
  });

  it('a wrong key fails with an operator log line and a user message, and the key is never logged or returned', async () => {
    api.key = 'sk-the-right-one';
    const { user, reason } = await failure(run(tool()));
    expect(user).toBe(WORKER_USER_MESSAGES.serviceFailed);
    expect(api.requests).toHaveLength(1);
    expect(logLines.find((l) => l.msg === 'images API refused the key: check GENERATION_API_KEY')).toMatchObject({
      level: 50,
      status: 401,
      code: 'invalid_api_key',
    });
    // The fake echoes the key it got, as providers do; it is masked.
    expect(reason).toContain('Incorrect API key provided: ***');
    expect(reason).not.toContain(KEY);
    expect(JSON.stringify(logLines)).not.toContain(KEY);
  });

  it('broken replies fail: not JSON, no images, not an image', async () => {
    for (const body of [
      '<html>gateway</html>',
      '{"data":[]}',
      JSON.stringify({ data: [{ b64_json: Buffer.from('not a png').toString('base64') }] }),
    ]) {
      api.queue.push({ kind: 'broken', body });
      expect((await failure(run(tool()))).user).toBe(WORKER_USER_MESSAGES.serviceFailed);
    }
  });

  it('refuses URLs that are not http(s), point at private or loopback addresses other than the API host, or are too large', async () => {
    const other = await FakeImagesApi.start();
    try {
      const port = new URL(api.baseUrl).port;
      const refused = [
        'file:///etc/passwd',
        `${other.origin}/files/x.png`,
        `http://localhost:${port}/files/1-0.png`,
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]:9/x.png',
      ];
      for (const url of refused) {
        api.queue.push({ kind: 'url', url });
        const { reason } = await failure(run(tool()));
        expect(reason).toMatch(/scheme|not public|non-public/);
      }
      expect(other.requests).toHaveLength(0);
      api.reply = { kind: 'images', as: 'url' };
      const { reason } = await failure(run(tool('gpt-image-1', { maxImageBytes: 1000 })));
      expect(reason).toMatch(/over the 1000 byte limit/);
    } finally {
      await other.close();
    }
  });

  it('stops between calls when the job is cancelled', async () => {
    await expect(run(tool('sd-server'), { count: 3 }, 2)).rejects.toBeInstanceOf(JobCancelledError);
    expect(api.requests).toHaveLength(2);
  });
});

describe('helpers', () => {
  it('tells public addresses from private, loopback, link-local and mapped ones', () => {
    for (const a of ['8.8.8.8', '2001:4860:4860::8888', '93.184.216.34']) expect(isPublicAddress(a)).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.5',
      '172.16.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'nonsense',
    ]) {
      expect(isPublicAddress(a)).toBe(false);
    }
  });

  it('reads Retry-After as seconds or a date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({}), now)).toBeUndefined();
  });

  it('folds the negative prompt into the prompt', () => {
    expect(foldPrompt('a cat', '')).toBe('a cat');
    expect(foldPrompt('a cat', ' blurry, text ')).toBe('a cat\n\nAvoid: blurry, text.');
  });
});
