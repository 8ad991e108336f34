import { LIMITS } from '../constants';
import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/**
 * What the images API is asked to paint into the erased area when the user writes nothing: the object is to
 * vanish, so the request describes only what should be there instead.
 */
export const ERASE_DEFAULT_PROMPT =
  'Fill the masked area naturally with the surrounding background, matching its texture, colour and light, with no new objects.';

export const ERASE_MESSAGES = {
  maskRequired: 'Paint over what to erase: the mask is missing.',
  maskEmpty: 'Paint over what to erase: the mask is empty.',
  maskShape: 'The mask must have the same shape as the photo.',
  maskUnreadable: 'The mask could not be read.',
} as const;

/** The strength from which a mask pixel counts as painted over (see maskStrength). */
export const MASK_PAINTED = 128;

/**
 * How strongly the mask pixel at byte `i` of 8-bit RGBA asks to erase, 0-255: its brightness times its opacity,
 * so white and opaque is 255, and black or transparent is 0 (a mask may be white on black or white on nothing).
 */
export function maskStrength(rgba: Uint8Array, i: number): number {
  const brightness = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
  return (brightness * rgba[i + 3]!) / 255;
}

/** The prompt a job sends: the user's own text, or the neutral fill. */
export function erasePrompt(params: { prompt?: string }): string {
  return params.prompt ?? ERASE_DEFAULT_PROMPT;
}

/**
 * Erase (clean-up): the user paints over an unwanted object, a hosted images API fills the painted area (its edit
 * call, masked by the painting), and every pixel outside it is put back from the photo, so only the painted area
 * changes. The mask belongs to one photo, so the tool is not batchable.
 */
export const eraseTool = {
  name: 'erase',
  label: 'Erase',
  summary: 'Remove an unwanted object: fill the area painted in a mask to match its surroundings',
  labelKey: 'client-tools.tool.erase',
  priceSetting: 'erase_price',
  takesImage: true,
  fileFields: ['mask'],
  batchable: false,
  // An AI-altered result: signed with a C2PA manifest (docs/content-credentials.md).
  contentCredentials: { action: 'c2pa.edited', sourceType: 'compositeWithTrainedAlgorithmicMedia' },
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-erased`,
  schemas: ({ z, optionalText, jobBase }: SchemaKit) => ({
    request: z.object({
      mask: z
        .literal('true', { error: ERASE_MESSAGES.maskRequired })
        .describe(
          "An image of the photo's shape (any size: it is scaled to the photo), white and opaque where to erase, black or transparent elsewhere",
        ),
      prompt: optionalText(LIMITS.promptMaxLength).describe(
        'What to fill the area with (default: its surroundings, with no new objects)',
      ),
      output_format: z.enum(['png', 'webp', 'jpeg']).default('png'),
    }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      maskKey: z.string().min(1),
      /** The prompt sent (the default already filled in). */
      prompt: z.string().min(1).max(LIMITS.promptMaxLength),
      outputFormat: z.enum(['png', 'webp', 'jpeg']),
    }),
  }),
} as const satisfies ToolContract;
