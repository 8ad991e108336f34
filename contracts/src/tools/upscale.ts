import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/**
 * The upscaling models a user can choose: `photo` (Real-ESRGAN general x4 v3, the default), `illustration`
 * (Real-ESRGAN anime video v3), `fast` (ESRGAN slim) and `photo-max` (Real-ESRGAN x4plus, offered only by
 * workers running on a GPU). Workers advertise the ones they can run in their heartbeat.
 */
export const UPSCALE_MODELS = ['photo', 'illustration', 'fast', 'photo-max'] as const;
export type UpscaleModel = (typeof UPSCALE_MODELS)[number];
export const DEFAULT_UPSCALE_MODEL: UpscaleModel = 'photo';

/** 2x or 4x upscaling with a choice of model; one price per job whatever the factor (a model may have its own). */
export const upscaleTool = {
  name: 'upscale',
  label: 'Upscaling',
  summary: 'Upscale an image 2x or 4x',
  labelKey: 'client-tools.tool.upscale',
  priceSetting: 'upscale_price',
  takesImage: true,
  batchable: true,
  models: UPSCALE_MODELS,
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-x${Number(job.params.factor) || 2}`,
  schemas: ({ z, intFromText, jobBase }: SchemaKit) => ({
    request: z.object({
      /** One of settings.upscale_factors (checked by the server). */
      factor: intFromText(z.number({ error: 'Factor is required' }).int()),
      output_format: z.enum(['png', 'webp', 'jpeg']).default('png'),
      model: z.preprocess(
        (v) => (v === '' ? undefined : v),
        z
          .enum(UPSCALE_MODELS, { error: `Model must be one of ${UPSCALE_MODELS.join(', ')}.` })
          .default(DEFAULT_UPSCALE_MODEL),
      ),
    }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      factor: z.union([z.literal(2), z.literal(4)]),
      // Jobs queued before models existed ran the default.
      model: z.enum(UPSCALE_MODELS).default(DEFAULT_UPSCALE_MODEL),
      outputFormat: z.enum(['png', 'webp', 'jpeg']),
    }),
  }),
} as const satisfies ToolContract;
