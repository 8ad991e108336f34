import type { ToolProvider } from '@imagestudio/contracts';
import { ImagesApi, type ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiJobFailure } from '../generation-api/job-failure';
import { apiSize, modelTraits } from '../generation-api/model-traits';
import { erase } from '../pipelines/erase';
import { downloadInput, runSingleImageJob } from './job-io';
import type { Tool, ToolLoader } from './types';

/** Progress: photo and mask read by 20%, the API's fill by 70%, the composed picture 90%, uploaded 100%. */
const PERCENTS = { downloaded: 10, prepared: 20, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Needs only a hosted images API (GENERATION_API_URL, with generation's model, key and timeout): without one the
 * tool is unavailable, so the worker does not advertise it and the API answers 503 before charging.
 */
export const loadEraseTool: ToolLoader<'erase'> = async ({ config, logger }) => {
  if (!config.GENERATION_API_URL) return { unavailable: 'GENERATION_API_URL is not set' };
  const model = config.GENERATION_API_MODEL;
  return eraseTool({
    baseUrl: config.GENERATION_API_URL,
    key: config.GENERATION_API_KEY,
    model,
    timeoutMs: config.GENERATION_API_TIMEOUT_S * 1000,
    logger: logger.child({ module: 'images-api', model }),
  });
};

/** The tool around one API client; `api` can shorten the retry backoff (tests). */
export function eraseTool(api: ImagesApiOptions): Tool<'erase'> {
  const client = new ImagesApi(api);
  const traits = modelTraits(api.model);
  const painter: ToolProvider = `remote:${api.model}`;
  return {
    // The work is the API's; the worker only blends the answer in, so the job takes no local model's slot.
    provider: painter,
    run: (ctx) =>
      runSingleImageJob(
        ctx,
        PERCENTS,
        async (input, step) =>
          erase(
            input,
            await downloadInput(ctx, ctx.payload.maskKey),
            {
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
        { provider: painter, notes: [`erased area filled by ${painter}`] },
      ),
  };
}
