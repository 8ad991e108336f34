import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { type GeneratePayload, type JobResult, jobResultSchema } from '@imagestudio/contracts';
import { loadWorkerConfig } from '../../config';
import { buildTinyGenerationModel, type TinyModelOptions } from '../../generation/test-support/tiny-model';
import { InferenceRuntime } from '../../inference';
import { createLogger } from '@imagestudio/runtime';
import { JobCancelledError } from '../../queue/errors';
import type { WorkerStorage } from '../../storage/storage';
import { startLocalStorage, type LocalS3 } from '../../test-support/local-s3';
import { loadGenerateTool } from './generate';
import { isUnavailable, type JobContext, type Tool } from '../types';

const BUCKET = 'gen-test';
let tmp: string;
let s3: LocalS3;
let endpoint: string;
let storage: WorkerStorage;
let runtime: InferenceRuntime;
const logger = createLogger('silent', 'test');

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gen-handler-'));
  ({ s3, storage } = await startLocalStorage(BUCKET));
  endpoint = s3.endpoint;
  runtime = await InferenceRuntime.start({ providers: ['cpu'], requireGpu: false, cpuThreads: 1 });
});

afterAll(async () => {
  await runtime.close();
  storage.close();
  await s3.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

const models = new Map<string, string>();
/** One tiny model folder per option set, built once. */
async function modelDir(options: TinyModelOptions = {}): Promise<string> {
  const key = JSON.stringify(options);
  if (!models.has(key))
    models.set(key, await buildTinyGenerationModel(path.join(tmp, `model-${models.size}`), options));
  return models.get(key)!;
}

async function loadTool(env: Record<string, string | undefined>): Promise<Tool<'generate'>> {
  const config = loadWorkerConfig({ S3_ENDPOINT: endpoint, ...env });
  const tool = await loadGenerateTool({ config, runtime, logger });
  if (isUnavailable(tool)) throw new Error(tool.unavailable);
  return tool;
}

interface Run {
  result: JobResult;
  progress: { percent: number; stage: string }[];
  pngs: Buffer[];
}

async function runJob(
  tool: Tool<'generate'>,
  overrides: Partial<GeneratePayload> = {},
  cancelAtStep?: number,
): Promise<Run> {
  const payload: GeneratePayload = {
    jobId: randomUUID(),
    userId: randomUUID(),
    prompt: 'a photo of a red fox in the snow',
    count: 1,
    width: 64,
    height: 64,
    seed: 42,
    ...overrides,
  };
  const progress: Run['progress'] = [];
  let checks = 0;
  const ctx: JobContext<'generate'> = {
    payload,
    storage,
    logger,
    progress: async (percent, stage) => {
      progress.push({ percent, stage });
    },
    checkCancelled: async () => {
      checks += 1;
      if (cancelAtStep !== undefined && checks > cancelAtStep) throw new JobCancelledError();
    },
  };
  const result = jobResultSchema.parse(await tool.run(ctx));
  const pngs = await Promise.all(result.files.map((f) => storage.get(f.key)));
  return { result, progress, pngs };
}

async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).raw().toBuffer();
}

describe('generate handler on tiny models (CPU, real onnxruntime, real S3 protocol)', () => {
  it('is unavailable without GENERATION_MODEL_DIR (and GENERATION_API_URL) or with an incomplete folder', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: endpoint });
    expect(await loadGenerateTool({ config, runtime, logger })).toEqual({
      unavailable: 'neither GENERATION_MODEL_DIR nor GENERATION_API_URL is set',
    });
    const empty = path.join(tmp, 'empty');
    await fs.mkdir(empty, { recursive: true });
    const partial = await loadGenerateTool({
      config: loadWorkerConfig({ S3_ENDPOINT: endpoint, GENERATION_MODEL_DIR: empty }),
      runtime,
      logger,
    });
    expect(isUnavailable(partial) && partial.unavailable).toMatch(/lacks model_index.json, text_encoder\/model.onnx/);
  });

  it('generates 1-4 PNGs with their seeds, provenance XMP and per-step progress', async () => {
    const tool = await loadTool({ GENERATION_MODEL_DIR: await modelDir(), GENERATION_STEPS: '2' });
    for (const count of [1, 2, 3, 4]) {
      const { result, progress, pngs } = await runJob(tool, { count, seed: 1000 });
      expect(result.files.map((f) => f.seed)).toEqual(Array.from({ length: count }, (_, n) => 1000 + n));
      expect(
        result.files.every(
          (f, n) => f.key.endsWith(`/${n}.png`) && f.format === 'png' && f.width === 64 && f.height === 64,
        ),
      ).toBe(true);
      expect(result.provider).toBe('cpu');
      expect(progress.map((p) => p.stage)).toEqual([
        'processing',
        'processing 1/2',
        'processing 2/2',
        'encoding',
        'saving',
        'saving',
      ]);
      expect(progress.at(-1)!.percent).toBe(100);
      for (const [n, png] of pngs.entries()) {
        const meta = await sharp(png).metadata();
        expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', 64, 64, 3]);
        expect(meta.xmp?.toString()).toContain('digitalsourcetype/trainedAlgorithmicMedia');
        expect(png.length).toBe(result.files[n]!.bytes);
      }
      if (count > 1) expect(pngs[0]!.equals(pngs[1]!)).toBe(false);
    }
  });

  it("writes a small WebP preview beside each result, under the job's results folder", async () => {
    const tool = await loadTool({ GENERATION_MODEL_DIR: await modelDir(), GENERATION_STEPS: '2' });
    const { result } = await runJob(tool, { count: 2, seed: 5 });
    for (const [n, file] of result.files.entries()) {
      const preview = result.thumbnailKeys?.[n];
      expect(preview).toBe(file.key.replace(/\/\d+\.png$/, `/thumbs/${n}.webp`));
      const meta = await sharp(await storage.get(preview!)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 64]);
    }
  });

  it('gives the same image for the same seed, prompt and settings, whatever the batch', async () => {
    const tool = await loadTool({
      GENERATION_MODEL_DIR: await modelDir(),
      GENERATION_STEPS: '3',
      GENERATION_SCHEDULER: 'euler-ancestral',
    });
    const four = await runJob(tool, { count: 4, seed: 7 });
    const again = await runJob(tool, { count: 4, seed: 7 });
    expect(again.pngs.map((p) => p.toString('base64'))).toEqual(four.pngs.map((p) => p.toString('base64')));
    // Image n of a batch uses seed + n: a single job at seed 9 is image 2 of the batch.
    const single = await runJob(tool, { count: 1, seed: 9 });
    expect(await pixels(single.pngs[0]!)).toEqual(await pixels(four.pngs[2]!));
    const otherPrompt = await runJob(tool, { count: 1, seed: 9, prompt: 'an astronaut riding a horse' });
    expect((await pixels(otherPrompt.pngs[0]!)).equals(await pixels(single.pngs[0]!))).toBe(false);
  });

  it.each([
    ['euler', 1],
    ['euler', 4],
    ['euler-ancestral', 3],
    ['lcm', 4],
  ])('runs the %s scheduler for %i steps', async (scheduler, steps) => {
    const dir = await modelDir({ scheduler: scheduler === 'lcm' ? 'LCMScheduler' : 'EulerDiscreteScheduler' });
    const tool = await loadTool({
      GENERATION_MODEL_DIR: dir,
      GENERATION_STEPS: String(steps),
      GENERATION_SCHEDULER: scheduler,
    });
    const { result, progress, pngs } = await runJob(tool, { count: 2 });
    expect(progress.filter((p) => /^processing \d/.test(p.stage))).toHaveLength(steps);
    expect(result.notes[0]).toBe(`${steps} ${scheduler} steps, guidance off`);
    const px = await pixels(pngs[0]!);
    // Not a flat image: the pipeline produced varying pixels.
    expect(new Set(px).size).toBeGreaterThan(10);
  });

  it('reads the scheduler from scheduler_config.json when none is configured', async () => {
    const tool = await loadTool({ GENERATION_MODEL_DIR: await modelDir({ scheduler: 'LCMScheduler' }) });
    const { result, progress } = await runJob(tool);
    expect(result.notes[0]).toBe('4 lcm steps, guidance off');
    expect(progress.filter((p) => /^processing \d/.test(p.stage))).toHaveLength(4);
  });

  it('guides with the negative prompt only when guidance > 1', async () => {
    const dir = await modelDir();
    const guided = await loadTool({ GENERATION_MODEL_DIR: dir, GENERATION_STEPS: '2', GENERATION_GUIDANCE: '7.5' });
    const plain = await loadTool({ GENERATION_MODEL_DIR: dir, GENERATION_STEPS: '2', GENERATION_GUIDANCE: '1' });
    const g1 = await runJob(guided, { negativePrompt: 'blurry' });
    const g2 = await runJob(guided, { negativePrompt: 'a watercolor painting' });
    const p1 = await runJob(plain, { negativePrompt: 'blurry' });
    const p2 = await runJob(plain, { negativePrompt: 'a watercolor painting' });
    expect(g1.result.notes[0]).toBe('2 euler steps, guidance 7.5');
    expect(p1.result.notes[0]).toBe('2 euler steps, guidance off');
    expect((await pixels(g1.pngs[0]!)).equals(await pixels(g2.pngs[0]!))).toBe(false);
    expect(await pixels(p1.pngs[0]!)).toEqual(await pixels(p2.pngs[0]!));
    expect((await pixels(g1.pngs[0]!)).equals(await pixels(p1.pngs[0]!))).toBe(false);
  });

  it('gives the same pixels on a fixed-batch, fixed-size export (one row per run) as on a dynamic one', async () => {
    const env = { GENERATION_STEPS: '2', GENERATION_GUIDANCE: '5' };
    const dynamic = await loadTool({ ...env, GENERATION_MODEL_DIR: await modelDir() });
    const fixed = await loadTool({
      ...env,
      GENERATION_MODEL_DIR: await modelDir({ batch: 1, spatial: [8, 8], timestepType: 'float32' }),
    });
    const a = await runJob(dynamic, { count: 3, negativePrompt: 'text' });
    const b = await runJob(fixed, { count: 3, negativePrompt: 'text' });
    for (let n = 0; n < 3; n += 1) {
      const [pa, pb] = [await pixels(a.pngs[n]!), await pixels(b.pngs[n]!)];
      // float32 vs int64 timestep feeds round the same integers; allow 1/255 for batched-kernel rounding.
      expect(Math.max(...pa.map((v, i) => Math.abs(v - pb[i]!)))).toBeLessThanOrEqual(1);
    }
  });

  it('maps other sizes onto the latent size and says so in the notes', async () => {
    const fixed = await loadTool({
      GENERATION_MODEL_DIR: await modelDir({ batch: 1, spatial: [8, 8], timestepType: 'float32' }),
    });
    const wide = await runJob(fixed, { width: 192, height: 128 });
    expect(wide.result.notes).toContain('generated at 64x64 (the model takes only this size) and resized to 192x128');
    expect(await sharp(wide.pngs[0]!).metadata()).toMatchObject({ width: 192, height: 128 });

    const dynamic = await loadTool({ GENERATION_MODEL_DIR: await modelDir() });
    const small = await runJob(dynamic, { width: 64, height: 32 });
    expect(small.result.notes).toHaveLength(1);
    expect(await sharp(small.pngs[0]!).metadata()).toMatchObject({ width: 64, height: 32 });
    const large = await runJob(dynamic, { width: 256, height: 128 });
    expect(large.result.notes).toContain('generated at 88x48 and resized to 256x128');
    expect(await sharp(large.pngs[0]!).metadata()).toMatchObject({ width: 256, height: 128 });
  });

  it('stops between steps when the job is cancelled and stores nothing', async () => {
    const tool = await loadTool({ GENERATION_MODEL_DIR: await modelDir(), GENERATION_STEPS: '5' });
    const jobId = randomUUID();
    const userId = randomUUID();
    await expect(runJob(tool, { jobId, userId, count: 2 }, 2)).rejects.toBeInstanceOf(JobCancelledError);
    const listed = await storage.client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `results/${userId}/` }),
    );
    expect(listed.KeyCount ?? 0).toBe(0);
  });

  it('refuses unknown styles and applies known ones', async () => {
    const tool = await loadTool({ GENERATION_MODEL_DIR: await modelDir() });
    await expect(runJob(tool, { style: 'no-such-style' })).rejects.toThrow(/Unknown style/);
    const plain = await runJob(tool);
    const styled = await runJob(tool, { style: 'watercolor' });
    expect((await pixels(plain.pngs[0]!)).equals(await pixels(styled.pngs[0]!))).toBe(false);
  });
});
