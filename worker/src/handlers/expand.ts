import type { ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiEditor, imagesApiSettings } from '../generation-api/job-editor';
import { expandImage } from '../pipelines/expand';
import { runSingleImageJob } from './job-io';
import { type Tool, type ToolLoader, isUnavailable } from './types';

/** Progress: the canvas ready 10%, the API's painting 70%, the result encoded 90%, uploaded 100%. */
const PERCENTS = { downloaded: 5, prepared: 10, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Needs a hosted images API (GENERATION_API_URL, with generation's model, key and timeout) and nothing else:
 * without one the tool is unavailable, so the worker does not advertise it and the API answers 503 before
 * charging.
 */
export const loadExpandTool: ToolLoader<'expand'> = async ({ config, logger }) => {
  const api = imagesApiSettings(config, logger);
  return isUnavailable(api) ? api : expandTool(api);
};

/** The tool around one API client; `api` can shorten the retry backoff (tests). */
export function expandTool(api: ImagesApiOptions): Tool<'expand'> {
  // Only the API works hard here: the job takes one of the remote slots (GENERATION_API_CONCURRENCY).
  const { painter: provider, forJob } = imagesApiEditor(api);
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
              ...forJob(ctx.checkCancelled),
            },
            step,
          ),
        { provider, notes: [`new area painted by ${provider}`] },
      ),
  };
}
