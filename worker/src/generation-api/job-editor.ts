import type { ToolProvider } from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';
import type { WorkerConfig } from '../config';
import { ImagesApi, type ImagesApiOptions } from './images-api';
import { imagesApiJobFailure } from './job-failure';
import type { MaskedEditOptions } from './masked-edit';
import { apiSize, modelTraits } from './model-traits';

/**
 * What the tools that repaint part of a photo through the images API (AI background, erase, expand) share: the
 * client made from the worker's generation settings, and per job an edit call bound to the job's cancel check with
 * its failures worded as the job's.
 */

/** The images API of generation's settings (model, key, timeout), or why the tool cannot run without one. */
export function imagesApiSettings(
  config: Pick<
    WorkerConfig,
    'GENERATION_API_URL' | 'GENERATION_API_KEY' | 'GENERATION_API_MODEL' | 'GENERATION_API_TIMEOUT_S'
  >,
  logger: Logger,
): ImagesApiOptions | { unavailable: string } {
  if (!config.GENERATION_API_URL) return { unavailable: 'GENERATION_API_URL is not set' };
  const model = config.GENERATION_API_MODEL;
  return {
    baseUrl: config.GENERATION_API_URL,
    key: config.GENERATION_API_KEY,
    model,
    timeoutMs: config.GENERATION_API_TIMEOUT_S * 1000,
    logger: logger.child({ module: 'images-api', model }),
  };
}

export interface ImagesApiEditor {
  /** `remote:<model>`: what the job's result names as its painter. */
  painter: ToolProvider;
  /** The edit call and size choice of one job (its cancel flag is checked between the API's retries). */
  forJob(checkCancelled: () => Promise<void>): Pick<MaskedEditOptions, 'apiSize' | 'edit'>;
}

/** One client for the tool's lifetime; `api` can shorten the retry backoff (tests). */
export function imagesApiEditor(api: ImagesApiOptions): ImagesApiEditor {
  const client = new ImagesApi(api);
  const traits = modelTraits(api.model);
  return {
    painter: `remote:${api.model}`,
    forJob: (checkCancelled) => ({
      apiSize: (width, height) => apiSize(traits, width, height),
      edit: (request) =>
        client.edit(request, checkCancelled).catch((err: unknown) => {
          throw imagesApiJobFailure(err);
        }),
    }),
  };
}
