import { LIMITS } from '../constants';
import { fileNameBase } from '../file-names';
import {
  EXPAND_ASPECT_IDS,
  EXPAND_FACTOR_RANGE,
  EXPAND_MESSAGES,
  EXPAND_POSITIONS,
  type ExpandAspect,
} from './expand-canvas';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/** What the images API is asked to paint into the new area when the user writes nothing. */
export const EXPAND_DEFAULT_PROMPT =
  'Continue the scene naturally beyond the edges of the photo, matching its perspective, light, colours and textures, with no borders, frames or text.';

/** The prompt a job sends: the user's own text, or the natural continuation. */
export function expandPrompt(params: { prompt?: string }): string {
  return params.prompt ?? EXPAND_DEFAULT_PROMPT;
}

/** A blank multipart field is the same as an absent one. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * Expand (uncrop): the photo is put on a larger canvas (a shape or a factor, see expand-canvas.ts), a hosted
 * images API paints the new area (its edit call, masked to that area), and the photo's own pixels are put back
 * where they were. One canvas choice serves a whole batch.
 */
export const expandTool = {
  name: 'expand',
  label: 'Image expansion',
  summary: 'Extend a photo onto a larger canvas (a shape or a factor), the new area painted by AI',
  labelKey: 'client-tools.tool.expand',
  priceSetting: 'expand_price',
  takesImage: true,
  batchable: true,
  // An AI-altered result (the photo with AI-made surroundings): signed with a C2PA manifest (docs/content-credentials.md).
  contentCredentials: { action: 'c2pa.edited', sourceType: 'compositeWithTrainedAlgorithmicMedia' },
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-expanded`,
  schemas: ({ z, optionalText, jobBase }: SchemaKit) => ({
    request: z
      .object({
        aspect: z
          .preprocess(
            blankToUndefined,
            z.enum(EXPAND_ASPECT_IDS as [ExpandAspect], { error: EXPAND_MESSAGES.aspect }).optional(),
          )
          .describe('The canvas shape, width:height (the smallest canvas of that shape that holds the photo)'),
        factor: z
          .preprocess(
            (v) => {
              const blank = blankToUndefined(v);
              return typeof blank === 'string' ? Number(blank) : blank;
            },
            z
              .number({ error: EXPAND_MESSAGES.factor })
              .min(EXPAND_FACTOR_RANGE.min, EXPAND_MESSAGES.factor)
              .max(EXPAND_FACTOR_RANGE.max, EXPAND_MESSAGES.factor)
              .optional(),
          )
          .describe('Instead of an aspect: both sides multiplied by this factor (1.25, 1.5, 2...)'),
        position: z
          .preprocess(blankToUndefined, z.enum(EXPAND_POSITIONS, { error: EXPAND_MESSAGES.position }).default('center'))
          .describe('Where the photo sits on the canvas; the new area is on the other side(s)'),
        prompt: optionalText(LIMITS.promptMaxLength).describe(
          'What to paint in the new area (default: the scene continued naturally)',
        ),
        output_format: z.enum(['png', 'webp', 'jpeg']).default('png'),
      })
      .refine((v) => (v.aspect === undefined) !== (v.factor === undefined), {
        message: EXPAND_MESSAGES.aspectOrFactor,
        path: ['aspect'],
      }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      aspect: z.enum(EXPAND_ASPECT_IDS as [ExpandAspect]).optional(),
      factor: z.number().min(EXPAND_FACTOR_RANGE.min).max(EXPAND_FACTOR_RANGE.max).optional(),
      position: z.enum(EXPAND_POSITIONS),
      /** The prompt sent (the default already filled in). */
      prompt: z.string().min(1).max(LIMITS.promptMaxLength),
      outputFormat: z.enum(['png', 'webp', 'jpeg']),
    }),
  }),
} as const satisfies ToolContract;
