import { fileNameBase } from '../file-names';
import type { SchemaKit } from './schema-kit';
import type { ToolContract } from './tool-contract';

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
  resultName: (job) => `${fileNameBase(job.input_name) || 'image'}-no-background`,
  schemas: ({ z, hexColor, jobBase, productPhotoFields, productPhotoLayout, productPhotoFormat }: SchemaKit) => ({
    // The fields one by one; the rules between them (one background, margins that fit) are
    // productPhotoRequestSchema's, which the server's definition parses with.
    request: productPhotoFields,
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
    }),
  }),
} as const satisfies ToolContract;
