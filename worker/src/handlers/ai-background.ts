import type { ExecutionProvider, ToolProvider } from '@imagestudio/contracts';
import { ImagesApi, type ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiJobFailure } from '../generation-api/job-failure';
import { apiSize, modelTraits } from '../generation-api/model-traits';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { aiBackground } from '../pipelines/ai-background';
import { loadDefaultMatting } from './default-matting';
import { runSingleImageJob } from './job-io';
import { type Tool, type ToolLoader, isUnavailable } from './types';

/** Progress: the matte by 20%, the API's background by 70%, the composed picture 90%, uploaded 100%. */
const PERCENTS = { downloaded: 10, prepared: 20, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Needs both halves: a hosted images API (GENERATION_API_URL, with generation's model, key and timeout) and the
 * background-removal model. Without either the tool is unavailable, so the worker does not advertise it and the
 * API answers 503 before charging.
 */
export const loadAiBackgroundTool: ToolLoader<'ai-background'> = async (deps) => {
  const { config, logger } = deps;
  if (!config.GENERATION_API_URL) return { unavailable: 'GENERATION_API_URL is not set' };
  const loaded = await loadDefaultMatting(deps);
  if (isUnavailable(loaded)) return loaded;
  const { session, entry, precision } = loaded;
  const model = config.GENERATION_API_MODEL;
  const tool = aiBackgroundTool(session, entry, {
    baseUrl: config.GENERATION_API_URL,
    key: config.GENERATION_API_KEY,
    model,
    timeoutMs: config.GENERATION_API_TIMEOUT_S * 1000,
    logger: logger.child({ module: 'images-api', model }),
  });
  return { ...tool, precision, close: () => session.release() };
};

/** The tool around a loaded matting session and one API client; `api` can shorten the retry backoff (tests). */
export function aiBackgroundTool(
  session: ModelRunner & { provider: ExecutionProvider },
  model: ModelEntry,
  api: ImagesApiOptions,
): Tool<'ai-background'> {
  const client = new ImagesApi(api);
  const traits = modelTraits(api.model);
  const painter: ToolProvider = `remote:${api.model}`;
  return {
    // The matting model's provider: the job then takes one of the local models' slots (WORKER_CONCURRENCY), so a
    // worker that also runs the local tools takes no more jobs at once than its models can hold.
    provider: session.provider,
    run: (ctx) =>
      runSingleImageJob(
        ctx,
        PERCENTS,
        (input, step) =>
          aiBackground(
            session,
            model,
            input,
            {
              prompt: ctx.payload.prompt,
              outputFormat: ctx.payload.outputFormat,
              apiSize: (width, height) => {
                const asked = /^(\d+)x(\d+)$/.exec(ctx.payload.size ?? '');
                return asked ? { width: Number(asked[1]), height: Number(asked[2]) } : apiSize(traits, width, height);
              },
              edit: (request) =>
                client
                  .edit(request, () => ctx.checkCancelled())
                  .catch((err: unknown) => {
                    throw imagesApiJobFailure(err);
                  }),
            },
            step,
          ),
        { provider: session.provider, notes: [`background painted by ${painter}`], madeBy: painter },
      ),
  };
}
