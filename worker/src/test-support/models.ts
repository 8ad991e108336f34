import crypto from 'node:crypto';
import path from 'node:path';
import { InferenceRuntime, type ModelRunner, type ModelSession, type TensorData } from '../inference';
import { defaultModel, preparedModelFile } from '../models';

/** Test helpers around the real prepared models (models/.cache, made by `npm run models`). */

export const FIXTURES = path.join(__dirname, 'fixtures');
export const MODELS_DIR = path.resolve(__dirname, '..', '..', '..', 'models', '.cache');

/** A CPU runtime with the worker's CPU threading (2 threads is this machine kind). */
export function startCpuRuntime(): Promise<InferenceRuntime> {
  return InferenceRuntime.start({ providers: ['cpu'], requireGpu: false, cpuThreads: 2 });
}

/** The default matting model and its prepared file; throws with the fix when `npm run models` has not run. */
export function mattingModel() {
  const model = defaultModel('background-removal');
  const file = model && preparedModelFile(MODELS_DIR, model);
  if (!model || !file) throw new Error('background-removal model missing: run `npm run models` first');
  return { model, file };
}

/**
 * Memoises a session's runs by the bytes of its inputs: tests of options that share an image pay for one real
 * inference. Different inputs always run the real model.
 */
export function memoRunner(session: ModelSession): ModelRunner & { misses: number } {
  const cache = new Map<string, Awaited<ReturnType<ModelSession['run']>>>();
  const runner = {
    misses: 0,
    async run(feeds: Record<string, TensorData>, outputs: readonly string[]) {
      const h = crypto.createHash('sha1');
      for (const [name, t] of Object.entries(feeds))
        h.update(name)
          .update(t.dims.join('x'))
          .update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      const key = `${h.digest('hex')}:${outputs.join()}`;
      const hit = cache.get(key);
      if (hit) return hit;
      runner.misses++;
      const result = await session.run(feeds, outputs);
      cache.set(key, result);
      return result;
    },
  };
  return runner;
}
