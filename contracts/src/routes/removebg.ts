import { z } from 'zod';
import { LIMITS } from '../constants';
import { DOUBTFUL_CUTOUT_CONFIDENCE } from '../cutout-confidence';
import { removeBgFieldsSchema } from './removebg-fields';
import { defineRoutes, type ReplyHeader } from './route';

/**
 * The remove.bg-compatible API (REMOVEBG_BASE, outside /api; docs/removebg-api.md): remove.bg's calls, fields,
 * replies and error codes on our pipeline and our API keys. Its entries are a table of their own, not part of
 * `routes`/ROUTES (the /api surface the API-key middleware and the envelope serve).
 */

const TAG = 'remove.bg compatible';
const RATE_HEADERS: Record<string, ReplyHeader> = {
  'X-RateLimit-Limit': { type: 'integer', description: "The key's requests per minute" },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in this minute' },
  'X-RateLimit-Reset': { type: 'integer', description: 'When the minute ends (unix seconds)' },
};

const file = { type: 'string', contentMediaType: 'application/octet-stream' } as const;

/** The reply to `Accept: application/json`: the image as base64 and where the subject is. */
export const removeBgResultSchema = z.object({
  data: z.object({
    result_b64: z.string(),
    foreground_top: z.number().int(),
    foreground_left: z.number().int(),
    foreground_width: z.number().int(),
    foreground_height: z.number().int(),
    cutout_confidence: z.number().min(0).max(1).nullable(),
  }),
});

/** GET /v1.0/account: remove.bg's account shape, the balance in tokens as `total` and `payg`. */
export const removeBgAccountSchema = z.object({
  data: z.object({
    attributes: z.object({
      credits: z.object({ total: z.number(), subscription: z.number(), payg: z.number(), enterprise: z.number() }),
      api: z.object({ free_calls: z.number().int(), sizes: z.string() }),
      limits: z
        .object({ requests_per_minute: z.number().int(), uploads_in_flight_per_key: z.number().int() })
        .describe("Ours, not remove.bg's: this key's calls per minute and uploads at once"),
    }),
  }),
});

export const removeBgRoutes = defineRoutes('removeBg', {
  removeBg: {
    compat: 'removebg',
    tag: TAG,
    summary: 'Remove the background (remove.bg-compatible, synchronous)',
    auth: 'key',
    form: {
      fields: removeBgFieldsSchema,
      files: {
        image_file: { ...file, description: 'The image (or send image_file_b64 or image_url)' },
        bg_image_file: { ...file, description: 'A background image' },
      },
      alsoAs: ['application/x-www-form-urlencoded', 'application/json'],
    },
    validatedBy: 'handler',
    extraErrors: [400, 402, 503],
    errorNotes: {
      400: `A bad field (missing_source, multiple_sources, invalid_size, invalid_format, invalid_roi, invalid_crop_margin, invalid_scale, invalid_position, invalid_channels, invalid_bg_color, multiple_bg_sources, invalid_image_url, failed_image_download, file_too_large (over ${LIMITS.uploadMaxBytes / 1048576} MB), invalid_file_type, invalid_dimensions, resolution_too_high, ...); nothing charged`,
      402: 'Not enough tokens (insufficient_credits)',
      503: 'Not done within 60 s: cancelled and refunded (timeout; see Retry-After), or the tool is unavailable',
    },
    reply: {
      kind: 'removebg',
      image: true,
      description: 'The image (or ZIP); with Accept: application/json the JSON form',
      payload: removeBgResultSchema,
      headers: {
        ...RATE_HEADERS,
        'X-Width': { type: 'integer' },
        'X-Height': { type: 'integer' },
        'X-Credits-Charged': { type: 'string', description: 'Tokens charged, as a decimal' },
        'X-Type': { type: 'string', description: 'Always "other" (no classifier)' },
        'X-Foreground-Top': { type: 'integer' },
        'X-Foreground-Left': { type: 'integer' },
        'X-Foreground-Width': { type: 'integer' },
        'X-Foreground-Height': { type: 'integer' },
        'X-Cutout-Confidence': {
          type: 'string',
          description: `How far the cut-out can be trusted, 0-1 with two decimals (ours, not remove.bg's); below ${DOUBTFUL_CUTOUT_CONFIDENCE} it is worth checking`,
        },
        'X-Max-Width': { type: 'integer', description: 'Set when the input was reduced for `size`' },
        'X-Max-Height': { type: 'integer', description: 'Set when the input was reduced for `size`' },
      },
    },
  },
  account: {
    compat: 'removebg',
    tag: TAG,
    summary: "The key owner's balance, in remove.bg's account shape",
    auth: 'key',
    reply: {
      kind: 'removebg',
      description: '`total` and `payg` are the balance in tokens',
      payload: removeBgAccountSchema,
      headers: RATE_HEADERS,
    },
  },
  improve: {
    compat: 'removebg',
    tag: TAG,
    summary: 'Accepted for compatibility; nothing is stored (we do not train on customer images)',
    auth: 'key',
    reply: { kind: 'removebg', description: 'An id, as remove.bg answers', payload: z.object({ id: z.string() }) },
  },
});

/** remove.bg's error shape, which its clients parse: every /v1.0 failure, never the /api envelope. */
export const removeBgErrorsSchema = z
  .object({
    errors: z.array(z.object({ title: z.string(), code: z.string(), detail: z.string().optional() })),
  })
  .describe("remove.bg's error shape (not the /api envelope)");
