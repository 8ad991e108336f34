import { z } from 'zod';
import { listPageSchema } from './list-page';
import { ERROR_STATUS, type ErrorCode } from './envelope';
import { JOB_STATUSES } from './jobs';
import { JOB_NAMES } from './tools';
import { DOUBTFUL_CUTOUT_CONFIDENCE } from './cutout-confidence';

/**
 * zod schemas of the replies the developer API documents (GET /api/openapi.json is generated from these
 * and from the request schemas). The view types the server fills in and the client reads are inferred from
 * them (JobView, JobPage, ProfileView), so the document cannot drift from what is sent.
 */

export const errorEnvelopeSchema = z
  .object({
    status: z.literal('ERROR'),
    message: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    errors: z.record(z.string(), z.array(z.string())).optional().describe('Field -> messages, on 422 only'),
    request_id: z.string().optional(),
  })
  .meta({ id: 'ErrorEnvelope' });

/** `{status:"OK", payload}` around a payload schema, plus the optional top-level fields. */
export function okEnvelope<T extends z.ZodType>(payload: T) {
  return z.object({
    status: z.literal('OK'),
    payload,
    message: z.string().optional(),
    redirect_url: z.string().optional(),
  });
}

const subjectBoxViewSchema = z
  .object({ left: z.number().int(), top: z.number().int(), width: z.number().int(), height: z.number().int() })
  .meta({ id: 'SubjectBox' });

/** The job view's and a batch item's `cutout_confidence` (contracts' cutout-confidence.ts). */
export const cutoutConfidenceViewSchema = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .describe(
    `remove-background: how far the cut-out can be trusted, 0-1 (two decimals), from its matte: half-transparent pixels inside the subject and small detached parts lower it; below ${DOUBTFUL_CUTOUT_CONFIDENCE} it is worth checking. null for other tools, unfinished jobs, jobs from before the score, and a matte without a subject`,
  );

export const jobResultViewSchema = z
  .object({
    url: z.string().describe('Presigned download URL, valid for 15 minutes'),
    width: z.number().int(),
    height: z.number().int(),
    format: z.enum(['png', 'webp', 'avif', 'jpeg']),
    bytes: z.number().int(),
    thumbnail_url: z
      .string()
      .nullable()
      .optional()
      .describe('Presigned URL of a WebP preview (long side at most 256 px); null for results stored before previews'),
    subject_box: subjectBoxViewSchema
      .nullable()
      .optional()
      .describe('remove-background: the subject in result pixels; null when none was found'),
  })
  .meta({ id: 'JobResult' });

/** A composition's option fields as the request sent them (checked), in the form of the job's own `params`. */
const compositionLayoutViewSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .meta({ id: 'CompositionLayout' });

export const compositionViewSchema = z
  .object({
    url: z.string().describe('Presigned download URL, valid for 15 minutes'),
    width: z.number().int(),
    height: z.number().int(),
    format: z.enum(['png', 'webp', 'avif', 'jpeg']),
    bytes: z.number().int().describe('Size of the file'),
    thumbnail_url: z
      .string()
      .nullable()
      .describe(
        'Presigned URL of a WebP preview (long side at most 256 px); null for pictures made before previews were kept',
      ),
    layout: compositionLayoutViewSchema
      .nullable()
      .describe(
        'The option fields that made it (crop_to_subject, margin, canvas, background_color, shadow, output_format, ...; background_image: true when an image was the background), as the request sent them; null for pictures made before layouts were kept',
      ),
    edited_matte: z.boolean().describe('Whether an edited matte (touch-up) was sent with it'),
    subject_box: subjectBoxViewSchema.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Composition' });

export const composeSourcesViewSchema = z
  .object({
    foreground_url: z.string().describe('The decontaminated foreground, opaque, full size (presigned, 15 minutes)'),
    matte_url: z.string().describe('The matte as a greyscale PNG, full size (presigned, 15 minutes)'),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: 'ComposeSources' });

export const jobViewSchema = z
  .object({
    id: z.string(),
    tool: z.enum(JOB_NAMES),
    status: z.enum(JOB_STATUSES),
    progress: z.number(),
    stage: z.string().nullable(),
    queue_position: z.number().int().nullable().describe('1 = next to run; null once running or ended'),
    params: z.record(z.string(), z.unknown()),
    cost: z.number().describe('Tokens charged (exact to 0.1)'),
    refunded: z.boolean(),
    error: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    input_url: z.string().nullable(),
    input_preview_url: z
      .string()
      .nullable()
      .describe(
        'A WebP of the input every browser shows (upright, sRGB, long side at most 2048 px), made at upload for HEIC, AVIF and TIFF files and large inputs (presigned, 15 minutes); null when the input needs none (show input_url) or once deleted',
      ),
    input_name: z.string().nullable().describe("The uploaded file's name; null for generation"),
    eta_seconds: z
      .number()
      .nullable()
      .describe('Estimated seconds left, from recent jobs of the tool; null when unknown'),
    results: z.array(jobResultViewSchema),
    deleted: z.boolean(),
    expired: z.boolean(),
    batch_id: z.string().nullable().optional().describe('The batch the job belongs to; null for a single job'),
    compose_sources: composeSourcesViewSchema
      .nullable()
      .optional()
      .describe('remove-background: the stored cut-out that POST /jobs/{id}/compose renders from'),
    compositions: z
      .array(compositionViewSchema)
      .optional()
      .describe('remove-background: the pictures made by POST /jobs/{id}/compose, oldest first'),
    cutout_confidence: cutoutConfidenceViewSchema,
  })
  .meta({ id: 'Job' });

export const jobPageSchema = listPageSchema(jobViewSchema).meta({ id: 'JobPage' });

export const profileViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    surname: z.string(),
    email: z.string(),
    phone: z.string(),
    phoneE164: z.string().nullable().describe('The phone in international form (E.164); null when none could be read'),
    balance: z.number().describe('Tokens (exact to 0.1)'),
    avatarUrl: z.string().nullable(),
    created_at: z.string(),
    country: z.object({ id: z.number().int(), name: z.string(), iso: z.string() }).nullable(),
    city: z.string(),
    address: z.string(),
    post_code: z.string(),
    email_verified: z.boolean(),
    role: z.literal('admin').optional().describe('Present only for operators'),
  })
  .meta({ id: 'Profile' });
