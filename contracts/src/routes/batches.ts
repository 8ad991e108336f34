import { z } from 'zod';
import {
  BATCH_LIMITS,
  batchAcceptedSchema,
  batchItemViewSchema,
  batchListQuerySchema,
  batchPageSchema,
  batchViewSchema,
} from '../batches';
import { BATCH_TOOLS, UPSCALE_MODELS } from '../tools';
import { defineRoutes } from './route';

/** The text fields of POST /batches: the tool and that tool's options (as on the single tool calls). */
const batchFields = z.object({
  tool: z.enum(BATCH_TOOLS),
  output_format: z
    .enum(['png', 'webp', 'jpeg'])
    .optional()
    .describe('png (default) or webp for remove-background; png, webp or jpeg for upscale'),
  background_color: z.string().optional().describe('remove-background: fill colour #rrggbb instead of transparency'),
  mask_only: z.boolean().optional().describe('remove-background: return the mask only'),
  factor: z.number().int().optional().describe('upscale (required there): 2 or 4'),
  model: z.enum(UPSCALE_MODELS).optional().describe('upscale: the model (default photo)'),
});

const batchFiles = {
  images: {
    type: 'array',
    maxItems: BATCH_LIMITS.maxItems,
    items: { type: 'string', contentMediaType: 'application/octet-stream' },
    description: `1-${BATCH_LIMITS.maxItems} images (PNG, JPEG or WebP, each at most 20 MB and 25 MP; ${BATCH_LIMITS.maxTotalBytes / 1024 / 1024} MB in all). Send this or archive.`,
  },
  archive: {
    type: 'string',
    contentMediaType: 'application/zip',
    description: `Or one ZIP with up to ${BATCH_LIMITS.maxItems} images. Refused: paths leading outside it, archives inside it, more than ${BATCH_LIMITS.archiveMaxUncompressedBytes / 1024 / 1024} MB expanded, entries expanding over ${BATCH_LIMITS.archiveMaxRatio}x.`,
  },
} as const;

/** Batches: many images through one tool, each an ordinary job; one view, one stream, one ZIP. */
export const batchRoutes = defineRoutes('batches', {
  create: {
    tag: 'Batches',
    summary:
      'Run one tool over many images (each item an ordinary job with its own charge; Idempotency-Key as for tools)',
    auth: 'key',
    form: { fields: batchFields, files: batchFiles },
    extraErrors: [402, 413, 503],
    reply: {
      kind: 'json',
      status: 202,
      payload: batchAcceptedSchema,
      description:
        'Accepted: every item charged and queued. A 422 names each bad file in `errors`; 402 when the balance does not cover the whole batch (nothing charged)',
    },
  },
  list: {
    tag: 'Batches',
    summary: "The caller's batches, newest first",
    auth: 'key',
    query: batchListQuerySchema,
    reply: { kind: 'json', payload: batchPageSchema },
  },
  get: {
    tag: 'Batches',
    summary: 'One batch: counts per status, items with progress and results',
    auth: 'key',
    reply: { kind: 'json', payload: batchViewSchema },
  },
  events: {
    tag: 'Batches',
    summary: 'Live batch updates (Server-Sent Events: `batch` with the batch, then `end`)',
    auth: 'key',
    reply: { kind: 'events', description: 'text/event-stream' },
  },
  cancel: {
    tag: 'Batches',
    summary: 'Cancel every item not yet ended (each refunded)',
    auth: 'key',
    reply: { kind: 'json', payload: batchViewSchema },
  },
  zip: {
    tag: 'Batches',
    summary: 'The finished results as one ZIP (streamed), with failed.csv when an item has no result',
    auth: 'key',
    reply: {
      kind: 'zip',
      description:
        'application/zip: results named after the inputs, plus failed.csv (file_name, job_id, status, reason) when an item has no result',
    },
  },
  retryItem: {
    tag: 'Batches',
    summary: 'Run a failed or cancelled item again (a new charge)',
    auth: 'key',
    extraErrors: [402, 503],
    reply: { kind: 'json', status: 202, payload: batchItemViewSchema },
  },
});
