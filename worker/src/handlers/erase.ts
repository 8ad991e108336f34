import type { ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiEditor, imagesApiSettings } from '../generation-api/job-editor';
import { erase } from '../pipelines/erase';
import { downloadInput, runSingleImageJob } from './job-io';
import { type Tool, type ToolLoader, isUnavailable } from './types';

/** Progress: photo and mask read by 20%, the API's fill by 70%, the composed picture 90%, uploaded 100%. */
const PERCENTS = { downloaded: 10, prepared: 20, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Needs only a hosted images API (GENERATION_API_URL, with generation's model, key and timeout): without one the
 * tool is unavailable, so the worker does not advertise it and the API answers 503 before charging.
 */
export const loadEraseTool: ToolLoader<'erase'> = async ({ config, logger }) => {
  const api = imagesApiSettings(config, logger);
  return isUnavailable(api) ? api : eraseTool(api);
};

/** The tool around one API client; `api` can shorten the retry backoff (tests). */
export function eraseTool(api: ImagesApiOptions): Tool<'erase'> {
  const { painter, forJob } = imagesApiEditor(api);
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
            { prompt: ctx.payload.prompt, outputFormat: ctx.payload.outputFormat, ...forJob(ctx.checkCancelled) },
            step,
          ),
        { provider: painter, notes: [`erased area filled by ${painter}`] },
      ),
  };
}
