import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

/**
 * The matting models a user can choose: `standard` (the manifest's ISNet, every worker has it) and `hq` (an
 * operator's own BiRefNet-class model, offered only by workers where it passed its start checks: models/README.md
 * "Bring your own matting model"). Workers advertise the ones they run in their heartbeat.
 */
export const REMOVE_BACKGROUND_MODELS = ['standard', 'hq'] as const;
export type RemoveBackgroundModel = (typeof REMOVE_BACKGROUND_MODELS)[number];
export const DEFAULT_REMOVE_BACKGROUND_MODEL: RemoveBackgroundModel = 'standard';

/**
 * Background removal: the cut-out, or a finished product photo (crop to subject, margin, canvas, background
 * colour, image or blur, shadow, format: product-photo.ts and docs/product-photos.md), or the mask alone.
 */
export const removeBackgroundTool = {
  name: 'remove-background',
  label: 'Background removal',
  summary: 'Remove the background of an image',
  labelKey: 'client-tools.tool.remove-background',
  priceSetting: 'background_removal_price',
  takesImage: true,
  fileFields: ['background_image'],
  batchable: true,
  models: REMOVE_BACKGROUND_MODELS,
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-no-background`,
  schemas: ({ z, hexColor, jobBase, productPhotoFields, productPhotoLayout, productPhotoFormat }: SchemaKit) => ({
    // The fields one by one; the rules between them (one background, margins that fit) are
    // productPhotoRequestSchema's, which the server's definition parses with.
    request: productPhotoFields.extend({
      model: z.preprocess(
        (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
        z
          .enum(REMOVE_BACKGROUND_MODELS, { error: `Model must be one of ${REMOVE_BACKGROUND_MODELS.join(', ')}.` })
          .optional(),
      ),
    }),
    payload: z.object({
      ...jobBase,
      inputKey: z.string().min(1),
      /** The layout's format (`auto` is decided when the picture is made). */
      outputFormat: productPhotoFormat,
      /** From payloads queued before layouts: a #rrggbb fill (a layout's background replaces it). */
      backgroundColor: hexColor.optional(),
      maskOnly: z.boolean().default(false),
      /** The product-photo layout; absent in payloads queued before it existed (then the fields above say it). */
      layout: productPhotoLayout.optional(),
      /** The stored background image (a second input of the job), for a layout with an image background. */
      backgroundKey: z.string().min(1).optional(),
      // Jobs queued before the choice existed ran the standard model.
      model: z.enum(REMOVE_BACKGROUND_MODELS).default(DEFAULT_REMOVE_BACKGROUND_MODEL),
    }),
  }),
} as const satisfies ToolContract;
