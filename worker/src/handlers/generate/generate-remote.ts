import { UnrecoverableError } from 'bullmq';
import sharp from 'sharp';
import {
  type GeneratePayload,
  type JobResultFile,
  type ToolProvider,
  WORKER_USER_MESSAGES,
  formatJobStage,
} from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';
import { ImagesApi, ImagesApiError, type ImagesApiOptions } from '../../generation-api/images-api';
import { imagesApiJobFailure } from '../../generation-api/job-failure';
import { apiSize, type ModelTraits, modelTraits } from '../../generation-api/model-traits';
import { type DecodedImage, decodeImage } from '../../imaging/decode';
import { generatedPng, styledPrompt } from './generate-common';
import { previewKeys, roundTimings, uploadResult } from '../job-io';
import type { JobContext, Tool, ToolLoader } from '../types';

/** Progress: the API calls fill 0-80%, encoding 90%, uploads 100%. */
const PERCENTS = { received: 80, encoded: 90, uploaded: 100 };

/**
 * Generation through a hosted OpenAI-compatible images API (GENERATION_API_URL). Nothing is checked at start
 * (a call costs money); the worker advertises `generate` with provider `remote:<model>`.
 */
export const loadRemoteGenerateTool: ToolLoader<'generate'> = async ({ config, logger }) => {
  const model = config.GENERATION_API_MODEL;
  return remoteGenerateTool({
    baseUrl: config.GENERATION_API_URL!,
    key: config.GENERATION_API_KEY,
    model,
    timeoutMs: config.GENERATION_API_TIMEOUT_S * 1000,
    logger: logger.child({ module: 'images-api', model }),
  });
};

/** The tool around one API client; `options` can shorten the retry backoff (tests). */
export function remoteGenerateTool(options: ImagesApiOptions): Tool<'generate'> {
  const api = new ImagesApi(options);
  // Learned from the API's replies (a 400 naming `n` or `seed`), then kept for this worker's life.
  const traits = modelTraits(options.model);
  const provider: ToolProvider = `remote:${options.model}`;
  return { provider, run: (ctx) => runRemoteGenerateJob(api, traits, provider, ctx) };
}

/**
 * The style preset and the negative prompt folded into one prompt: these APIs take a single text, and most
 * models follow a plain "Avoid:" line.
 */
export function foldPrompt(prompt: string, negativePrompt: string): string {
  return negativePrompt.trim() === '' ? prompt : `${prompt}\n\nAvoid: ${negativePrompt.trim()}.`;
}

/** One generate job: API calls (one per image where the model needs it or takes a seed), PNGs to S3. */
async function runRemoteGenerateJob(
  api: ImagesApi,
  traits: ModelTraits,
  provider: ToolProvider,
  ctx: JobContext<'generate'>,
) {
  const payload: GeneratePayload = ctx.payload;
  const styled = styledPrompt(payload);
  const prompt = foldPrompt(styled.prompt, styled.negativePrompt);
  const started = performance.now();
  const images = await requestImages(api, traits, prompt, payload, ctx);
  const requestMs = performance.now() - started;

  let t = performance.now();
  const notes: string[] = [];
  const tool = `imagestudio generate (${provider})`;
  const pngs: Buffer[] = [];
  for (const image of images.decoded) {
    if (image.width !== payload.width || image.height !== payload.height) {
      const note = `generated at ${image.width}x${image.height} by ${provider} and resized to ${payload.width}x${payload.height}`;
      if (!notes.includes(note)) notes.push(note);
    }
    // An opaque image is stored without an alpha channel, as the local pipeline stores it.
    const raw = image.hasAlpha ? image : { ...image, data: await dropAlpha(image), channels: 3 as const };
    pngs.push(await generatedPng(raw, payload.width, payload.height, tool));
  }
  await ctx.progress(PERCENTS.encoded, 'saving');
  await ctx.checkCancelled();
  const encodeMs = performance.now() - t;

  t = performance.now();
  const files: JobResultFile[] = [];
  for (const [n, png] of pngs.entries()) {
    const file = await uploadResult(ctx, n, { data: png, width: payload.width, height: payload.height }, 'png', {
      agent: provider,
    });
    files.push(images.seeded ? { ...file, seed: payload.seed + n } : file);
  }
  const uploadMs = performance.now() - t;
  await ctx.progress(PERCENTS.uploaded, 'saving');
  if (!images.seeded) notes.push(`the seed was not used: ${provider} takes no seed`);
  return {
    files,
    thumbnailKeys: previewKeys(ctx, files),
    provider,
    timings: roundTimings({
      request: requestMs,
      encode: encodeMs,
      upload: uploadMs,
      total: performance.now() - started,
    }),
    notes,
  };
}

/**
 * Calls the API until `count` images are in: one call with `n: count`, or one call per image when the model
 * takes only `n: 1` or takes a seed (image n then gets seed + n, as the local pipeline does). A 400 naming `n`
 * or `seed` switches to the other form once. API failures become the job's user-facing failure.
 */
async function requestImages(
  api: ImagesApi,
  traits: ModelTraits,
  prompt: string,
  payload: GeneratePayload,
  ctx: JobContext<'generate'>,
) {
  const { width, height } = apiSize(traits, payload.width, payload.height);
  const size = `${width}x${height}`;
  const decoded: DecodedImage[] = [];
  // Whether every image was asked for with its seed (the traits can change under a concurrent job).
  let seeded = true;
  while (decoded.length < payload.count) {
    const perImage = traits.singleImage || traits.seed;
    const n = perImage ? 1 : payload.count - decoded.length;
    const request = { prompt, n, size, seed: traits.seed ? payload.seed + decoded.length : undefined };
    let replies: Buffer[];
    try {
      replies = await api.generate(request, () => ctx.checkCancelled());
    } catch (err) {
      if (err instanceof ImagesApiError && err.kind === 'failed' && learnFrom(err, traits, decoded.length, ctx.logger))
        continue;
      throw imagesApiJobFailure(err);
    }
    if (request.seed === undefined) seeded = false;
    for (const reply of replies.slice(0, payload.count - decoded.length)) decoded.push(await decodeReply(reply));
    await ctx.progress(
      (PERCENTS.received * decoded.length) / payload.count,
      formatJobStage('processing', decoded.length, payload.count),
    );
  }
  return { decoded, seeded };
}

/** A 400 naming `n` or `seed`: the model does not take it; true when the traits changed and a retry is worth it. */
function learnFrom(err: ImagesApiError, traits: ModelTraits, done: number, logger: Logger): boolean {
  if (err.param === 'n' && !traits.singleImage) {
    traits.singleImage = true;
  } else if (err.param === 'seed' && traits.seed && done === 0) {
    traits.seed = false;
  } else {
    return false;
  }
  logger.info({ param: err.param }, 'images API does not take this parameter; asking without it from now on');
  return true;
}

/** An image from the API; one that cannot be decoded is a broken reply. */
async function decodeReply(bytes: Buffer): Promise<DecodedImage> {
  try {
    return await decodeImage(bytes);
  } catch {
    throw new UnrecoverableError(
      `${WORKER_USER_MESSAGES.serviceFailed} (images API: reply is not a readable image, ${bytes.length} bytes)`,
    );
  }
}

async function dropAlpha(image: DecodedImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .raw()
    .toBuffer();
}
