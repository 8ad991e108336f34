import { z } from 'zod';
import { listPageSchema } from './list-page';
import { LIMITS } from './constants';
import { JOB_STATUSES, type JobStatus } from './jobs';
import { cutoutConfidenceViewSchema, jobResultViewSchema } from './api-schemas';
import { BATCH_TOOLS } from './tools';

/**
 * Batches (POST /api/batches and friends): one tool run over many uploaded images at once. Each item is an
 * ordinary job with its own charge, so a failed or cancelled item refunds only itself; the batch groups them
 * for one price, one progress view, one stream and one ZIP download.
 */

export const BATCH_LIMITS = {
  /** Images per batch, sent as files or found in the ZIP. */
  maxItems: 50,
  /** All files of one request together (the ZIP itself when an archive is sent). */
  maxTotalBytes: 200 * 1024 * 1024,
  /** Each image, as for a single upload. */
  maxItemBytes: LIMITS.uploadMaxBytes,
  /** ZIP: all entries' uncompressed sizes added up. */
  archiveMaxUncompressedBytes: 200 * 1024 * 1024,
  /** ZIP: an entry may expand at most this many times its compressed size (images barely compress). */
  archiveMaxRatio: 100,
  /** ZIP: entries of any kind (folders and skipped files included) read before refusing the archive. */
  archiveMaxEntries: 1000,
  /** Rows per page of GET /api/batches. */
  perPage: 20,
} as const;

/** Multipart field names of POST /api/batches. */
export const BATCH_FIELDS = {
  tool: 'tool',
  /** 1-50 image files. */
  images: 'images',
  /** Or exactly one ZIP file with the images. */
  archive: 'archive',
} as const;

/**
 * The batch's status, derived from its items: `queued` (none started), `running` (some not ended), then once
 * every item ended: `succeeded` (all), `partial` (some succeeded), `failed` (none succeeded, not all
 * cancelled), `cancelled` (all cancelled).
 */
export const BATCH_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const FINAL_BATCH_STATUSES: readonly BatchStatus[] = ['succeeded', 'partial', 'failed', 'cancelled'];
export function isFinalBatchStatus(status: string): boolean {
  return (FINAL_BATCH_STATUSES as readonly string[]).includes(status);
}

/** The batch status for items' statuses (the rule above, shared by server and client). */
export function batchStatusOf(statuses: readonly JobStatus[]): BatchStatus {
  if (statuses.length === 0) return 'cancelled';
  const final = statuses.filter((s) => s === 'succeeded' || s === 'failed' || s === 'cancelled');
  if (final.length < statuses.length) return statuses.every((s) => s === 'queued') ? 'queued' : 'running';
  const succeeded = final.filter((s) => s === 'succeeded').length;
  if (succeeded === statuses.length) return 'succeeded';
  if (succeeded > 0) return 'partial';
  return final.every((s) => s === 'cancelled') ? 'cancelled' : 'failed';
}

/** "a, b or c" */
function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

export const BATCH_MESSAGES = {
  noFiles: 'Choose between 1 and 50 images, or one ZIP file.',
  tooManyFiles: `A batch takes at most ${BATCH_LIMITS.maxItems} images.`,
  bothKinds: 'Send either images or one ZIP archive, not both.',
  oneArchive: 'Send one ZIP archive per batch.',
  tooLarge: `A batch may be at most ${BATCH_LIMITS.maxTotalBytes / 1024 / 1024} MB in all.`,
  toolRequired: `Tool must be ${orList(BATCH_TOOLS)}.`,
  badFiles: (count: number) => (count === 1 ? 'One file cannot be processed.' : `${count} files cannot be processed.`),
  archiveUnreadable: 'The archive is not a readable ZIP file.',
  archiveEmpty: 'The archive holds no images.',
  archiveTooManyEntries: `The archive holds too many files (at most ${BATCH_LIMITS.archiveMaxEntries} entries).`,
  archiveTooLarge: `The archive expands to more than ${BATCH_LIMITS.archiveMaxUncompressedBytes / 1024 / 1024} MB.`,
  entryUnsafePath: 'Unsafe path in the archive (absolute or leading outside it).',
  entryNested: 'Archives inside the archive are not opened.',
  entryRatio: 'Compressed suspiciously well (possible ZIP bomb).',
  entryEncrypted: 'Encrypted entries cannot be read.',
  notAnImage: 'Not a JPEG, PNG, WebP, AVIF, TIFF or HEIC image.',
  alreadyFinished: 'This batch has already finished.',
  retryNotFailed: 'Only a failed or cancelled item can be retried.',
  fileNotTaken: 'This tool does not take this file.',
} as const;

/**
 * A 422 for bad files carries `errors` keyed by the file's name as sent (ZIP entries by their path inside the
 * archive), each with the reasons; request-level problems use the keys `tool`, `images`, `archive` or the
 * option's name.
 */
export type BatchFileErrors = Record<string, string[]>;

/** One item in the 202 reply. */
export const batchAcceptedItemSchema = z.object({
  id: z.string().describe('The job id (GET /api/jobs/{id} works for it)'),
  file_name: z.string().describe('The input file name (ZIP entries: the base name)'),
  status: z.enum(JOB_STATUSES),
});

/** A ZIP entry left out of a batch (not an image, or refused on its own): listed, never charged. */
export const batchSkippedSchema = z.object({
  file_name: z.string().describe("The entry's path inside the ZIP"),
  reasons: z.array(z.string()),
});
export type BatchSkipped = z.infer<typeof batchSkippedSchema>;

/** 202 reply of POST /api/batches. */
export const batchAcceptedSchema = z
  .object({
    id: z.string(),
    tool: z.enum(BATCH_TOOLS),
    status: z.enum(BATCH_STATUSES),
    cost: z.number().describe('Tokens charged for the whole batch (sum of the items, exact to 0.1)'),
    created_at: z.string(),
    items: z.array(batchAcceptedItemSchema),
    skipped: z.array(batchSkippedSchema).describe('ZIP entries left out (not images); nothing charged for them'),
  })
  .meta({ id: 'BatchAccepted' });
export type BatchAccepted = z.infer<typeof batchAcceptedSchema>;

export const batchCountsSchema = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type BatchCounts = z.infer<typeof batchCountsSchema>;

/** One item of GET /api/batches/{id}: its job's live state and results. */
export const batchItemViewSchema = z
  .object({
    id: z.string().describe('The job id'),
    file_name: z.string(),
    status: z.enum(JOB_STATUSES),
    progress: z.number(),
    stage: z.string().nullable(),
    queue_position: z.number().int().nullable(),
    cost: z.number(),
    refunded: z.boolean(),
    error: z.string().nullable(),
    input_url: z.string().nullable().describe('Presigned URL of the uploaded image (thumbnail); null once deleted'),
    input_preview_url: z
      .string()
      .nullable()
      .describe(
        'A WebP of the input every browser shows, for HEIC, AVIF, TIFF and large inputs (presigned); null when the input needs none or once deleted',
      ),
    results: z.array(jobResultViewSchema),
    cutout_confidence: cutoutConfidenceViewSchema,
    /** On a retry: the id of the failed or cancelled item it replaced (that one is left out of `items`). */
    retry_of: z.string().nullable().describe('The item this one retried, if any'),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'BatchItem' });
export type BatchItemView = z.infer<typeof batchItemViewSchema>;

/** A batch in lists (GET /api/batches). */
export const batchSummarySchema = z
  .object({
    id: z.string(),
    tool: z.enum(BATCH_TOOLS),
    status: z.enum(BATCH_STATUSES),
    params: z.record(z.string(), z.unknown()).describe('The tool options the batch was run with'),
    cost: z.number().describe('Tokens charged for all items, retries included'),
    refunded: z.number().describe('Tokens refunded for failed or cancelled items'),
    total: z.number().int().describe('Number of items (a retried item counts once)'),
    counts: batchCountsSchema,
    skipped: z.array(batchSkippedSchema).describe('ZIP entries left out (not images); nothing charged for them'),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'BatchSummary' });
export type BatchSummary = z.infer<typeof batchSummarySchema>;

/** GET /api/batches/{id} (and the cancel reply, and each SSE event's data). */
export const batchViewSchema = batchSummarySchema
  .extend({
    items: z.array(batchItemViewSchema).describe('In upload order; an item replaced by a retry is left out'),
    zip_url: z.string().describe('Path of the ZIP download of the finished results'),
  })
  .meta({ id: 'Batch' });
export type BatchView = z.infer<typeof batchViewSchema>;

export const batchPageSchema = listPageSchema(batchSummarySchema).meta({ id: 'BatchPage' });
export type BatchPage = z.infer<typeof batchPageSchema>;

export const batchListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/**
 * GET /api/batches/{id}/events (text/event-stream): `event: batch` with the whole BatchView at once and
 * whenever an item changes, then `event: end` with the final BatchView when every item has ended, and the
 * stream closes. The data of both events is a BatchView.
 */
export const BATCH_SSE_EVENTS = { update: 'batch', end: 'end' } as const;

/** Paths, for clients. */
export const BATCH_PATHS = {
  create: '/api/batches',
  list: '/api/batches',
  one: (id: string) => `/api/batches/${id}`,
  events: (id: string) => `/api/batches/${id}/events`,
  cancel: (id: string) => `/api/batches/${id}/cancel`,
  zip: (id: string) => `/api/batches/${id}/zip`,
  /** POST: runs a failed or cancelled item again as a new item (a new charge); 202 with the new BatchItemView. */
  retryItem: (id: string, itemId: string) => `/api/batches/${id}/items/${itemId}/retry`,
} as const;

/** Columns of failed.csv inside the ZIP download. */
export const BATCH_FAILED_CSV_COLUMNS = ['file_name', 'job_id', 'status', 'reason'] as const;

/**
 * ZIP entries are named like single downloads (resultDownloadName: `shoe-01-no-background.png`,
 * `shoe-01-x4.png`); a name already used in the ZIP gets `-2`, `-3`, ... before its extension.
 */
export const BATCH_FAILED_CSV_NAME = 'failed.csv';
/** The ZIP always ends with failed.csv: one row per item without a result (failed, cancelled, or not finished). */
export const BATCH_ZIP_MESSAGES = { notFinished: 'Not finished when the ZIP was made.' } as const;
