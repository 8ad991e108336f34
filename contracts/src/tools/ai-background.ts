import { LIMITS } from '../constants';
import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/**
 * The backgrounds a user can pick instead of writing a prompt, named for where the product stands. The texts
 * live here so the API, the worker and the client's preview of the prompt agree on them.
 */
export const AI_BACKGROUND_PRESETS = {
  'studio-white': 'A seamless white studio sweep with soft, even light and a gentle shadow under the product.',
  marble: 'A polished white marble table top in a bright room, softly blurred background, natural daylight.',
  outdoor: 'Outdoors on a flat stone ledge, a sunny garden softly out of focus behind, warm natural light.',
  kitchen: 'A clean modern kitchen counter, light wood and tiles softly out of focus behind, morning light.',
} as const;
export type AiBackgroundPreset = keyof typeof AI_BACKGROUND_PRESETS;
export const AI_BACKGROUND_PRESET_IDS = Object.keys(AI_BACKGROUND_PRESETS) as AiBackgroundPreset[];

export const AI_BACKGROUND_MESSAGES = {
  promptOrPreset: 'Give a prompt or a preset, exactly one of the two.',
  promptTooLong: `Prompt may not be greater than ${LIMITS.promptMaxLength} characters.`,
  preset: `Preset must be one of ${Object.keys(AI_BACKGROUND_PRESETS).join(', ')}.`,
} as const;

/** The prompt a job sends: the user's own text or the preset's. */
export function aiBackgroundPrompt(params: { prompt?: string; preset?: AiBackgroundPreset }): string {
  return params.prompt ?? AI_BACKGROUND_PRESETS[params.preset ?? 'studio-white'];
}

/**
 * A new background painted around the subject of a photo by a hosted images API (its edit call, masked by our
 * matte); the subject's own pixels are put back on top, so the product itself is never redrawn.
 */
export const aiBackgroundTool = {
  name: 'ai-background',
  label: 'AI background',
  summary: 'Paint a new background around the subject of an image from a prompt or a preset',
  labelKey: 'client-tools.tool.ai-background',
  priceSetting: 'ai_background_price',
  takesImage: true,
  batchable: true,
  // An AI-altered result: signed with a C2PA manifest (docs/content-credentials.md).
  contentCredentials: { action: 'c2pa.edited', sourceType: 'compositeWithTrainedAlgorithmicMedia' },
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-ai-background`,
  schemas: ({ z, optionalText, jobBase }: SchemaKit) => ({
    request: z
      .object({
        prompt: optionalText(LIMITS.promptMaxLength),
        preset: z.preprocess(
          (v) => (v === '' ? undefined : v),
          z.enum(AI_BACKGROUND_PRESET_IDS as [AiBackgroundPreset], { error: AI_BACKGROUND_MESSAGES.preset }).optional(),
        ),
        /** The size asked of the images API ("1024x1024"); the result keeps the photo's own size. */
        size: z
          .string()
          .regex(/^\d{2,4}x\d{2,4}$/, 'Size must look like 1024x1024')
          .optional(),
        output_format: z.enum(['png', 'webp', 'jpeg']).default('png'),
      })
      .refine((v) => (v.prompt === undefined) !== (v.preset === undefined), {
        message: AI_BACKGROUND_MESSAGES.promptOrPreset,
        path: ['prompt'],
      }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      /** The prompt sent (a preset already turned into its text). */
      prompt: z.string().min(1).max(LIMITS.promptMaxLength),
      size: z.string().optional(),
      outputFormat: z.enum(['png', 'webp', 'jpeg']),
    }),
  }),
} as const satisfies ToolContract;
