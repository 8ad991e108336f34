import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/** Background removal: a transparent PNG or WebP, a solid colour behind the subject, or the mask alone. */
export const removeBackgroundTool = {
  name: 'remove-background',
  label: 'Background removal',
  summary: 'Remove the background of an image',
  labelKey: 'client-tools.tool.remove-background',
  priceSetting: 'background_removal_price',
  takesImage: true,
  batchable: true,
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-no-background`,
  schemas: ({ z, boolFromText, hexColorField, hexColor, jobBase }: SchemaKit) => ({
    request: z.object({
      output_format: z.enum(['png', 'webp']).default('png'),
      background_color: z.preprocess((v) => (v === '' ? undefined : v), hexColorField.optional()),
      mask_only: boolFromText.default(false),
    }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      outputFormat: z.enum(['png', 'webp']),
      backgroundColor: hexColor.optional(),
      maskOnly: z.boolean().default(false),
    }),
  }),
} as const satisfies ToolContract;
