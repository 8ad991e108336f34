import { z } from 'zod';
import { PRODUCT_PHOTO_FORMATS, productPhotoFieldsSchema, productPhotoLayoutSchema } from '../product-photo';

/**
 * What the tools' request and payload schemas are built from. Each tool file receives this kit in its `schemas`
 * function instead of importing zod: the browser bundle reads the tool files for names, labels and settings,
 * and must not load the validation library with them.
 */

/** Multipart and JSON fields arrive as text; these accept both forms. */
export const intFromText = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
const boolFromText = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
  z.boolean(),
);
/** Optional text: blank is the same as absent. */
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max).optional(),
  );

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** A colour as a request field (the message is the user's). */
const hexColorField = z.string().regex(HEX_COLOR, 'Background color must look like #rrggbb');

/** The fields every queue payload starts with. */
const jobBase = {
  /** Same id as the `image_jobs` row and the BullMQ job id. */
  jobId: z.string().uuid(),
  userId: z.string().uuid(),
  /** The HTTP request that accepted the job, so worker logs can be joined to API logs. */
  requestId: z.string().max(100).optional(),
};

export const schemaKit = {
  z,
  intFromText,
  boolFromText,
  optionalText,
  hexColorField,
  /** A colour in a queue payload. */
  hexColor: z.string().regex(HEX_COLOR),
  jobBase,
  /** Background removal's product-photo option fields (product-photo.ts), as sent. */
  productPhotoFields: productPhotoFieldsSchema,
  /** The parsed product-photo layout a queue payload carries. */
  productPhotoLayout: productPhotoLayoutSchema,
  productPhotoFormat: z.enum(PRODUCT_PHOTO_FORMATS),
};
export type SchemaKit = typeof schemaKit;
