import { LIMITS } from '../constants';
import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

export const GENERATE_MESSAGES = {
  promptRequired: 'Prompt is required',
  promptTooLong: `Prompt may not be greater than ${LIMITS.promptMaxLength} characters.`,
} as const;

/** Text-to-image: up to LIMITS.imagesPerPromptMax images per prompt, priced per image. */
export const generateTool = {
  name: 'generate',
  label: 'Image generation',
  summary: 'Text to image (1-4 images)',
  labelKey: 'client-tools.tool.generate',
  priceSetting: 'image_generation_price',
  takesImage: false,
  // Batches run one tool over uploaded images; generation takes none.
  batchable: false,
  // An AI-made result: signed with a C2PA manifest (docs/content-credentials.md).
  contentCredentials: { action: 'c2pa.created', sourceType: 'trainedAlgorithmicMedia' },
  // The prompt's first words: "a-lighthouse-at-dusk-2".
  resultName: (job, index) => {
    const words = String(job.params.prompt ?? '')
      .toLowerCase()
      .split(/\s+/)
      .slice(0, 6)
      .join('-');
    return `${fileNameBase(words) || 'generated'}-${index + 1}`;
  },
  schemas: ({ z, intFromText, optionalText, jobBase }: SchemaKit) => ({
    request: z.object({
      prompt: z
        .string({ error: GENERATE_MESSAGES.promptRequired })
        .trim()
        .min(1, GENERATE_MESSAGES.promptRequired)
        .max(LIMITS.promptMaxLength, GENERATE_MESSAGES.promptTooLong),
      count: intFromText(
        z
          .number()
          .int()
          .min(1)
          .max(LIMITS.imagesPerPromptMax, `At most ${LIMITS.imagesPerPromptMax} images per request`),
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
    }),
    payload: z.object({
      ...jobBase,
      prompt: z.string().min(1).max(1000),
      negativePrompt: z.string().max(1000).optional(),
      style: z.string().max(50).optional(),
      count: z.number().int().min(1).max(4),
      width: z.number().int().min(64).max(2048),
      height: z.number().int().min(64).max(2048),
      /** Seed of the first image; image n uses seed + n. Chosen by the API when the user gave none. */
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1),
    }),
  }),
} as const satisfies ToolContract;
