import { randomInt } from 'node:crypto';
import {
  JOB_MESSAGES,
  STYLE_IDS,
  findStyle,
  generateRequestSchema,
  removeBackgroundRequestSchema,
  upscaleRequestSchema,
} from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { validationError } from '../../lib/errors';
import { submitJob, type SubmitOutcome } from '../jobs/submit.service';
import { checkUpscaleOutput, inspectUpload } from '../uploads/image-inspect';
import type { MultipartUpload } from '../uploads/multipart';
import { checkFactor, checkSize, costTenths } from './tools.pricing';
import { readToolSettings } from './tools.settings';
import { assertUpscaleModelAvailable } from './tools.status';

/** Who asks, and the request's Idempotency-Key and id. */
export interface SubmitMeta {
  userId: string;
  idempotencyKey?: string;
  requestId?: string;
}

/** POST /api/tools/generate: cost = image_generation_price x count. */
export async function startGenerate(ctx: AppContext, body: unknown, meta: SubmitMeta): Promise<SubmitOutcome> {
  const input = generateRequestSchema.parse(body);
  const settings = await readToolSettings(ctx);
  const { width, height } = checkSize(settings, input.size);
  if (input.style && !findStyle(input.style))
    throw validationError({ style: [`Style must be one of ${STYLE_IDS.join(', ')}.`] });
  const params = { ...input };
  return submitJob(ctx, {
    ...meta,
    tool: 'generate',
    params,
    costTenths: costTenths(settings, 'generate', input.count),
    payload: () => ({
      prompt: input.prompt,
      negativePrompt: input.negative_prompt,
      style: input.style,
      count: input.count,
      width,
      height,
      // The API picks the seed when the user gave none, so the job can be reproduced from its row.
      seed: input.seed ?? randomInt(0, 2 ** 32 - 1),
    }),
  });
}

function requireImage(upload: MultipartUpload): Buffer {
  if (!upload.file) throw validationError({ image: [JOB_MESSAGES.imageRequired] });
  return upload.file;
}

/** POST /api/tools/remove-background (multipart): cost = background_removal_price. */
export async function startRemoveBackground(
  ctx: AppContext,
  upload: MultipartUpload,
  meta: SubmitMeta,
): Promise<SubmitOutcome> {
  const image = requireImage(upload);
  const input = removeBackgroundRequestSchema.parse(upload.fields);
  const settings = await readToolSettings(ctx);
  return submitJob(ctx, {
    ...meta,
    tool: 'remove-background',
    params: { ...input },
    rawInput: image,
    inputName: upload.fileName,
    costTenths: costTenths(settings, 'remove-background'),
    prepareInput: () => inspectUpload(image),
    payload: ({ inputKey }) => ({
      inputKey: inputKey!,
      outputFormat: input.output_format,
      backgroundColor: input.background_color,
      maskOnly: input.mask_only,
    }),
  });
}

/**
 * POST /api/tools/upscale (multipart): cost = the model's price (upscale_price unless settings price it
 * apart); the output must stay within 64 MP; a model no live worker offers is refused before charging.
 */
export async function startUpscale(ctx: AppContext, upload: MultipartUpload, meta: SubmitMeta): Promise<SubmitOutcome> {
  const image = requireImage(upload);
  const input = upscaleRequestSchema.parse(upload.fields);
  const settings = await readToolSettings(ctx);
  const factor = checkFactor(settings, input.factor);
  const { model } = input;
  await assertUpscaleModelAvailable(ctx, model);
  return submitJob(ctx, {
    ...meta,
    tool: 'upscale',
    params: { factor, model, output_format: input.output_format },
    rawInput: image,
    inputName: upload.fileName,
    costTenths: costTenths(settings, 'upscale', 1, model),
    prepareInput: async () => {
      const clean = await inspectUpload(image);
      checkUpscaleOutput(clean.width, clean.height, factor);
      return clean;
    },
    payload: ({ inputKey }) => ({ inputKey: inputKey!, factor, model, outputFormat: input.output_format }),
  });
}
