import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { createLogger } from '@imagestudio/runtime';
import { loadWorkerConfig } from '../config';
import type { InferenceRuntime } from '../inference';
import { writeTestMattingModel } from '../test-support/matting-model';
import { MODELS_DIR, startCpuRuntime } from '../test-support/models';
import { loadRemoveBackgroundTool } from './remove-background';
import { isUnavailable, type JobContext, type Tool } from './types';

/** What the heartbeat advertises for background removal with and without an operator's model that passed. */

const logger = createLogger('silent', 'test');
let runtime: InferenceRuntime;
let dir: string;

beforeAll(async () => {
  runtime = await startCpuRuntime();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'matting-hq-'));
});

afterAll(async () => {
  await runtime.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function loadTool(file?: string): Promise<Tool<'remove-background'>> {
  const config = loadWorkerConfig({
    S3_ENDPOINT: 'http://127.0.0.1:9',
    MODELS_DIR,
    WORKER_WARMUP_RUNS: '0',
    ...(file ? { WORKER_MATTING_MODEL_FILE: file } : {}),
  });
  const tool = await loadRemoveBackgroundTool({ config, runtime, logger });
  if (isUnavailable(tool)) throw new Error(tool.unavailable);
  return tool;
}

it('offers standard and hq when the operator model passes its checks', async () => {
  const tool = await loadTool(path.join(dir, await writeTestMattingModel(dir, 'logits')));
  expect(tool.models).toEqual(['standard', 'hq']);
  await tool.close?.();
});

it('keeps serving the standard model, with no choice, when the operator model is refused', async () => {
  const tool = await loadTool(path.join(dir, await writeTestMattingModel(dir, 'inverted')));
  expect(tool.models).toBeUndefined();
  // A job for hq that reaches this worker fails for good, naming the model.
  const ctx = { payload: { model: 'hq' } } as unknown as JobContext<'remove-background'>;
  await expect(tool.run(ctx)).rejects.toThrow(
    new UnrecoverableError('Background removal with the hq model is not available on this worker.'),
  );
  await tool.close?.();
});
