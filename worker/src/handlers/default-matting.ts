import type { LoadedModel } from '../inference';
import { loadWithPrecision } from '../inference';
import { defaultModel, preparedModelFile } from '../models';
import type { ToolDeps, ToolUnavailable } from './types';

/**
 * The manifest's default matting model at the precision WORKER_PRECISION and the CPU call for (the int8 file has
 * the same tensors and preprocessing as the fp32 one), or why it cannot be loaded. Every tool that cuts out a
 * subject loads it here, so they cut a photo alike (and share one session: the runtime loads a file once).
 */
export async function loadDefaultMatting({
  config,
  runtime,
  logger,
}: ToolDeps): Promise<LoadedModel | ToolUnavailable> {
  const wanted = defaultModel('background-removal');
  if (!wanted) return { unavailable: 'no background-removal model in the manifest' };
  const file = preparedModelFile(config.MODELS_DIR, wanted);
  if (!file) return { unavailable: `model ${wanted.id} is not prepared (run npm run models)` };
  return loadWithPrecision(runtime, wanted, file, {
    setting: config.WORKER_PRECISION,
    modelsDir: config.MODELS_DIR,
    logger,
  });
}
