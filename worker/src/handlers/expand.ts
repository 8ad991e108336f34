import type { ToolProvider } from '@imagestudio/contracts';
import { ImagesApi, type ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiJobFailure } from '../generation-api/job-failure';
import { apiSize, modelTraits } from '../generation-api/model-traits';
import { expandImage } from '../pipelines/expand';
import { runSingleImageJob } from './job-io';
import type { Tool, ToolLoader } from './types';

/** Progress: the canvas ready 10%, the API's painting 70%, the result encoded 90%, uploaded 100%. */
const PERCENTS = { downloaded: 5, prepared: 10, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Needs a hosted images API (GENERATION_API_URL, with generation's model, key and timeout) and nothing else:
 * without one the tool is unavailable, so the worker does not advertise it and the API answers 503 before
 * charging.
 */
export const loadExpandTool: ToolLoader<'expand'> = async ({ config, logger }) => {
  if (!config.GENERATION_API_URL) return { unavailable: 'GENERATION_API_URL is not set' };
  const model = config.GENERATION_API_MODEL;
  return expandTool({
    baseUrl: config.GENERATION_API_URL,
    key: config.GENERATION_API_KEY,
    model,
    timeoutMs: config.GENERATION_API_TIMEOUT_S * 1000,
    logger: logger.child({ module: 'images-api', model }),
  });
};

/** The tool around one API client; `api` can shorten the retry backoff (tests). */
export function expandTool(api: ImagesApiOptions): Tool<'expand'> {
  const client = new ImagesApi(api);
  const traits = modelTraits(api.model);
  // Only the API works hard here: the job takes one of the remote slots (GENERATION_API_CONCURRENCY).
  const provider: ToolProvider = `remote:${api.model}`;
  return {
    provider,
    run: (ctx) =>
      runSingleImageJob(
        ctx,
        PERCENTS,
        (input, step) =>
          expandImage(
            input,
            {
              choice: { aspect: ctx.payload.aspect, factor: ctx.payload.factor, position: ctx.payload.position },
              prompt: ctx.payload.prompt,
              outputFormat: ctx.payload.outputFormat,
              apiSize: (width, height) => apiSize(traits, width, height),
              edit: (request) =>
                client
                  .edit(request, () => ctx.checkCancelled())
                  .catch((err: unknown) => {
                    throw imagesApiJobFailure(err);
                  }),
            },
            step,
          ),
        { provider, notes: [`new area painted by ${provider}`] },
      ),
  };
}
