import { z } from 'zod';
import { LIMITS } from './constants';
import { JOB_MESSAGES, JOB_STATUSES } from './jobs';
import { DEFAULT_UPSCALE_MODEL, JOB_NAMES, UPSCALE_MODELS } from './queue';

/** The zod schemas of the tool and job requests (jobs.ts has the statuses, messages and views). */

const intFromText = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
const boolFromText = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
  z.boolean(),
);
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max).optional(),
  );
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Background color must look like #rrggbb');

export const generateRequestSchema = z.object({
  prompt: z
    .string({ error: JOB_MESSAGES.promptRequired })
    .trim()
    .min(1, JOB_MESSAGES.promptRequired)
    .max(LIMITS.promptMaxLength, JOB_MESSAGES.promptTooLong),
  count: intFromText(
    z.number().int().min(1).max(LIMITS.imagesPerPromptMax, `At most ${LIMITS.imagesPerPromptMax} images per request`),
  ).default(1),
  /** One of settings.image_generation_sizes, e.g. "1024x1024" (checked against the settings by the server). */
  size: z.string({ error: 'Size is required' }).regex(/^\d{2,4}x\d{2,4}$/, 'Size must look like 1024x1024'),
  style: optionalText(50),
  negative_prompt: optionalText(LIMITS.promptMaxLength),
  seed: intFromText(
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1),
  ).optional(),
});
export type GenerateRequest = z.infer<typeof generateRequestSchema>;

export const removeBackgroundRequestSchema = z.object({
  output_format: z.enum(['png', 'webp']).default('png'),
  background_color: z.preprocess((v) => (v === '' ? undefined : v), hexColor.optional()),
  mask_only: boolFromText.default(false),
});
export type RemoveBackgroundRequest = z.infer<typeof removeBackgroundRequestSchema>;

export const upscaleRequestSchema = z.object({
  /** One of settings.upscale_factors (checked by the server). */
  factor: intFromText(z.number({ error: 'Factor is required' }).int()),
  output_format: z.enum(['png', 'webp', 'jpeg']).default('png'),
  model: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .enum(UPSCALE_MODELS, { error: `Model must be one of ${UPSCALE_MODELS.join(', ')}.` })
      .default(DEFAULT_UPSCALE_MODEL),
  ),
});
export type UpscaleRequest = z.infer<typeof upscaleRequestSchema>;

export const quoteQuerySchema = z.object({
  tool: z.enum(JOB_NAMES),
  count: intFromText(z.number().int().min(1).max(LIMITS.imagesPerPromptMax)).default(1),
  factor: intFromText(z.number().int()).optional(),
  model: z.enum(UPSCALE_MODELS).optional(),
});

export const jobListQuerySchema = z.object({
  page: intFromText(z.number().int().min(1).max(100_000)).default(1),
  tool: z.enum(JOB_NAMES).optional(),
  status: z.enum(JOB_STATUSES).optional(),
});
