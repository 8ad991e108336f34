import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from 'bullmq';
import pino from 'pino';
import sharp from 'sharp';
import { AI_BACKGROUND_PRESETS, type JobName, type JobResult, jobResultSchema } from '@imagestudio/contracts';
import type { RedisClient } from '@imagestudio/runtime';
import { loadWorkerConfig } from '../config';
import { buildTinyGenerationModel } from '../generation/test-support/tiny-model';
import { FakeImagesApi } from '../generation-api/test-support/fake-images-api';
import { aiBackgroundTool } from '../handlers/ai-background';
import { loadGenerateTool } from '../handlers/generate/generate';
import { remoteGenerateTool } from '../handlers/generate/generate-remote';
import { type LoadedTools, type Tool, isUnavailable } from '../handlers/types';
import { loadUpscaleTool } from '../handlers/upscale';
import type { InferenceRuntime } from '../inference';
import { createProcessor } from '../queue/processor';
import type { WorkerStorage } from '../storage/storage';
import { startLocalStorage, type LocalS3 } from '../test-support/local-s3';
import { FIXTURES, MODELS_DIR, mattingModel, startCpuRuntime } from '../test-support/models';
import { pemCertificates } from './certificates';
import { ContentCredentials } from './content-credentials';
import { readContentCredentials } from './reader';

// Jobs through the worker's processor, as app.ts wires it: the tools' real handlers (a local fake of the images
// API, the real matting and upscaling models on CPU, a tiny local generation model), results in S3 (s3rver),
// read back from S3 with c2pa-ts.
const BUCKET = 'content-credentials-test';
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const IPTC = 'http://cv.iptc.org/newscodes/digitalsourcetype/';
const logger = pino({ level: 'silent' });
let tmp: string;
let s3: LocalS3;
let storage: WorkerStorage;
let api: FakeImagesApi;
let runtime: InferenceRuntime;
let credentials: ContentCredentials;
let root: Buffer;
const tools: Partial<Record<JobName, Tool<never>>> = {};

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'c2pa-results-'));
  ({ s3, storage } = await startLocalStorage(BUCKET));
  api = await FakeImagesApi.start();
  runtime = await startCpuRuntime();
  const { model, file } = mattingModel();
  const imagesApi = { baseUrl: api.baseUrl, model: 'gpt-image-1', timeoutMs: 10_000, logger, backoffMs: 10 };
  tools.generate = remoteGenerateTool(imagesApi) as Tool<never>;
  tools['ai-background'] = aiBackgroundTool(await runtime.load(file), model, imagesApi) as Tool<never>;
  const config = loadWorkerConfig({ S3_ENDPOINT: s3.endpoint, MODELS_DIR, WORKER_WARMUP_RUNS: '0' });
  const upscale = await loadUpscaleTool({ config, runtime, logger });
  if (isUnavailable(upscale)) throw new Error(upscale.unavailable);
  tools.upscale = upscale as Tool<never>;
  const devDir = path.join(tmp, 'dev');
  credentials = await ContentCredentials.start({ C2PA_DEV_CERT_DIR: devDir, C2PA_SIGN_ALL_RESULTS: false }, logger, {
    name: 'imagestudio-worker',
    version: '0.1.0',
  });
  root = pemCertificates(fs.readFileSync(path.join(devDir, 'dev-root.pem'), 'utf8'))[0]!;
}, 120_000);

afterAll(async () => {
  await credentials.close();
  await api.close();
  storage.close();
  await s3.stop();
  await runtime.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs one job through the processor; returns its result and its stored files. */
async function process(name: JobName, payload: Record<string, unknown>, only?: Partial<Record<JobName, Tool<never>>>) {
  const processor = createProcessor({
    tools: (only ?? tools) as unknown as LoadedTools,
    storage,
    redis: { exists: async () => 0 } as unknown as RedisClient,
    logger,
    credentials,
  });
  const data = { jobId: randomUUID(), userId: randomUUID(), ...payload };
  const job = { name, data, id: data.jobId, attemptsMade: 0, updateProgress: async () => undefined };
  const result: JobResult = jobResultSchema.parse(await processor(job as unknown as Job<unknown, JobResult, string>));
  return { result, files: await Promise.all(result.files.map((f) => storage.get(f.key))) };
}

async function upload(bytes: Buffer): Promise<string> {
  const key = `inputs/${randomUUID()}`;
  await storage.put(key, bytes, 'image/png');
  return key;
}

describe('Content Credentials on stored results', () => {
  it('a generated PNG (hosted API): c2pa.created, trainedAlgorithmicMedia, remote:gpt-image-1', async () => {
    const { result, files } = await process('generate', {
      prompt: 'a red fox',
      count: 2,
      width: 256,
      height: 256,
      seed: 7,
    });
    expect(files).toHaveLength(2);
    for (const [n, file] of files.entries()) {
      expect(result.files[n]!.bytes).toBe(file.length);
      const report = await readContentCredentials(file, [root]);
      expect(report.failures).toEqual([]);
      expect(report.manifest!.actions).toEqual([
        {
          action: 'c2pa.created',
          digitalSourceType: `${IPTC}trainedAlgorithmicMedia`,
          softwareAgent: 'remote:gpt-image-1',
          ingredients: [],
        },
      ]);
      // Without the development root as an anchor, the trust is the one failure.
      expect((await readContentCredentials(file)).failures).toEqual(['signingCredential.untrusted']);
    }
    // The preview is made from the same pixels.
    expect((await sharp(files[0]).metadata()).width).toBe(256);
  }, 60_000);

  it("an AI background as JPEG: c2pa.edited by the API's model, the upload's SHA-256 as parentOf", async () => {
    const inputKey = await upload(COFFEE);
    const { files } = await process('ai-background', {
      inputKey,
      prompt: AI_BACKGROUND_PRESETS.marble,
      outputFormat: 'jpeg',
    });
    const report = await readContentCredentials(files[0]!);
    expect(report.format).toBe('image/jpeg');
    expect(report.failures).toEqual(['signingCredential.untrusted']);
    expect(report.manifest!.ingredients).toEqual([
      expect.objectContaining({
        relationship: 'parentOf',
        format: 'image/png',
        instanceId: `sha256:${createHash('sha256').update(COFFEE).digest('hex')}`,
      }),
    ]);
    expect(report.manifest!.actions.map((a) => [a.action, a.digitalSourceType, a.softwareAgent])).toEqual([
      ['c2pa.opened', undefined, 'imagestudio-worker'],
      ['c2pa.edited', `${IPTC}compositeWithTrainedAlgorithmicMedia`, 'remote:gpt-image-1'],
    ]);
  }, 60_000);

  it('a local model names itself onnx:<folder>', async () => {
    const dir = await buildTinyGenerationModel(path.join(tmp, 'tiny-sd'));
    const config = loadWorkerConfig({ S3_ENDPOINT: s3.endpoint, GENERATION_MODEL_DIR: dir });
    const local = await loadGenerateTool({ config, runtime, logger });
    if (isUnavailable(local)) throw new Error(local.unavailable);
    const { files } = await process(
      'generate',
      { prompt: 'a fox', count: 1, width: 64, height: 64, seed: 1 },
      { generate: local as Tool<never> },
    );
    const report = await readContentCredentials(files[0]!, [root]);
    expect(report.failures).toEqual([]);
    expect(report.manifest!.actions[0]).toMatchObject({ action: 'c2pa.created', softwareAgent: 'onnx:tiny-sd' });
    await local.close?.();
  }, 60_000);

  it('a plain upscale keeps its XMP tag and gets no manifest', async () => {
    const small = await sharp(COFFEE).resize(48, 32).png().toBuffer();
    const { files } = await process('upscale', {
      inputKey: await upload(small),
      factor: 2,
      model: 'fast',
      outputFormat: 'png',
    });
    const report = await readContentCredentials(files[0]!);
    expect(report).toMatchObject({ format: 'image/png', manifest: null });
    expect(files[0]!.toString('latin1')).toContain('digitalsourcetype/compositeWithTrainedAlgorithmicMedia');
  }, 60_000);
});
