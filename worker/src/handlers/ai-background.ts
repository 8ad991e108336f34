import type { ExecutionProvider } from '@imagestudio/contracts';
import type { ImagesApiOptions } from '../generation-api/images-api';
import { imagesApiEditor, imagesApiSettings } from '../generation-api/job-editor';
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
  const api = imagesApiSettings(deps.config, deps.logger);
  if (isUnavailable(api)) return api;
  const loaded = await loadDefaultMatting(deps);
  if (isUnavailable(loaded)) return loaded;
  const { session, entry, precision } = loaded;
  const tool = aiBackgroundTool(session, entry, api);
  return { ...tool, precision, close: () => session.release() };
};

/** The tool around a loaded matting session and one API client; `api` can shorten the retry backoff (tests). */
export function aiBackgroundTool(
  session: ModelRunner & { provider: ExecutionProvider },
  model: ModelEntry,
  api: ImagesApiOptions,
): Tool<'ai-background'> {
  const { painter, forJob } = imagesApiEditor(api);
  return {
    // The matting model's provider: the job then takes one of the local models' slots (WORKER_CONCURRENCY), so a
    // worker that also runs the local tools takes no more jobs at once than its models can hold.
    provider: session.provider,
    run: (ctx) => {
      const api = forJob(ctx.checkCancelled);
      // A size the request asked for wins over the one chosen for the photo's shape.
      const asked = /^(\d+)x(\d+)$/.exec(ctx.payload.size ?? '');
      const apiSize = asked ? () => ({ width: Number(asked[1]), height: Number(asked[2]) }) : api.apiSize;
      return runSingleImageJob(
        ctx,
        PERCENTS,
        (input, step) =>
          aiBackground(
            session,
            model,
            input,
            { prompt: ctx.payload.prompt, outputFormat: ctx.payload.outputFormat, apiSize, edit: api.edit },
            step,
          ),
        { provider: session.provider, notes: [`background painted by ${painter}`], madeBy: painter },
      );
    },
  };
}
