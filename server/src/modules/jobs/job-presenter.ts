import {
  compositionDownloadName,
  resultDownloadName,
  tenthsToTokens,
  type ComposeSourcesView,
  type CompositionView,
  type JobResultView,
  type JobView,
} from '@imagestudio/contracts';
import { estimateSecondsLeft } from './job-estimate';
import type { AppContext } from '../../context';
import type { JobRow } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

/** Presigned URLs live this long (the 15 minutes). */
export const URL_TTL_SECONDS = 15 * 60;

/**
 * Index and length read in one Redis step: read in two calls, a worker taking the next job in between
 * shortened the list and the next job showed position 0. A job not in the wait list may be in BullMQ's
 * prioritized set (a user's jobs beyond their fair share, see fair-priority.ts): those run after the whole
 * wait list, in the set's order.
 */
const POSITION = `
local index = redis.call('LPOS', KEYS[1], ARGV[1], 'RANK', -1)
if index then return redis.call('LLEN', KEYS[1]) - index end
if not KEYS[2] then return nil end
local rank = redis.call('ZRANK', KEYS[2], ARGV[1])
if not rank then return nil end
return redis.call('LLEN', KEYS[1]) + rank + 1`;

/**
 * 1-based place of `id` in a list pushed on the left and taken from the right, or after that list in the
 * sorted set `prioritizedKey`; null when in neither.
 */
export async function waitListPosition(
  redis: AppContext['queueRedis'],
  key: string,
  id: string,
  prioritizedKey?: string,
): Promise<number | null> {
  const position = await redis.eval(POSITION, {
    keys: prioritizedKey ? [key, prioritizedKey] : [key],
    arguments: [id],
  });
  return typeof position === 'number' ? position : null;
}

/**
 * 1-based place of a waiting job in the queue (1 = the next to run), or null when it is not waiting
 * (running, retry back-off, finished). Jobs another user submits later may still overtake a prioritized job.
 */
export async function queuePosition(ctx: JobsDeps, jobId: string): Promise<number | null> {
  try {
    return await waitListPosition(ctx.queueRedis, ctx.queue.keys.wait!, jobId, ctx.queue.keys.prioritized);
  } catch {
    return null;
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether a job's input and results were deleted by the user or by retention. */
export const filesAreGone = (row: JobRow) => row.deleted_at !== null || row.expired_at !== null;

/** A succeeded job's results as presigned URLs named after the input; none once its files are gone. */
export async function presentResults(ctx: JobsDeps, row: JobRow): Promise<JobResultView[]> {
  if (row.status !== 'succeeded' || !row.result || filesAreGone(row)) return [];
  const boxes = row.result.subjectBoxes;
  const previews = row.result.thumbnailKeys;
  return Promise.all(
    row.result.files.map(async (f, i) => ({
      url: await ctx.storage.presignGet(f.key, URL_TTL_SECONDS, resultDownloadName(row, i, f.format)),
      width: f.width,
      height: f.height,
      format: f.format,
      bytes: f.bytes,
      thumbnail_url: previews?.[i] ? await ctx.storage.presignGet(previews[i], URL_TTL_SECONDS) : null,
      ...(boxes && { subject_box: boxes[i] ?? null }),
    })),
  );
}

/** A succeeded background removal's cut-out confidence; null for other tools and results from before the score. */
export function cutoutConfidenceOf(row: JobRow): number | null {
  return row.status === 'succeeded' ? (row.result?.cutoutConfidence ?? null) : null;
}

/** The tool whose jobs keep their cut-out for re-composition (POST /api/jobs/{id}/compose). */
const COMPOSING_TOOL = 'remove-background';

/**
 * Whether a job's stored cut-out can be re-composed: a succeeded background removal whose files still exist and whose
 * cost was not given back. A refunded job's results stay downloadable until retention (the customer keeps what they
 * saw), but it makes no new pictures: re-composing is free because the job was paid for.
 */
export function canCompose(row: JobRow): boolean {
  return (
    row.tool === COMPOSING_TOOL &&
    row.status === 'succeeded' &&
    !row.refunded &&
    !filesAreGone(row) &&
    !!row.result?.sources
  );
}

/** The stored foreground and matte as owner-only presigned URLs; null when there is nothing to re-compose. */
async function presentComposeSources(ctx: Pick<JobsDeps, 'storage'>, row: JobRow): Promise<ComposeSourcesView | null> {
  const sources = row.result?.sources;
  if (!canCompose(row) || !sources) return null;
  const [foreground_url, matte_url] = await Promise.all([
    ctx.storage.presignGet(sources.foregroundKey, URL_TTL_SECONDS),
    ctx.storage.presignGet(sources.matteKey, URL_TTL_SECONDS),
  ]);
  return { foreground_url, matte_url, width: sources.width, height: sources.height };
}

/**
 * The job's re-compositions as presigned URLs named after its result and their size, with their list previews and
 * the fields that made them (null for pictures from before these were kept); none once its files are gone.
 */
export async function presentCompositions(ctx: Pick<JobsDeps, 'storage'>, row: JobRow): Promise<CompositionView[]> {
  if (filesAreGone(row)) return [];
  return Promise.all(
    (row.compositions ?? []).map(async (c) => ({
      url: await ctx.storage.presignGet(c.key, URL_TTL_SECONDS, compositionDownloadName(row, c)),
      width: c.width,
      height: c.height,
      format: c.format,
      bytes: c.bytes,
      thumbnail_url: c.thumbnail_key ? await ctx.storage.presignGet(c.thumbnail_key, URL_TTL_SECONDS) : null,
      layout: c.layout ?? null,
      edited_matte: c.edited_matte ?? false,
      subject_box: c.subject_box,
      created_at: c.created_at,
    })),
  );
}

/** Presigned URLs of a job's input and of its browser preview; none once its files are gone. */
export async function presentInput(
  ctx: Pick<JobsDeps, 'storage'>,
  row: JobRow,
): Promise<{ input_url: string | null; input_preview_url: string | null }> {
  if (filesAreGone(row)) return { input_url: null, input_preview_url: null };
  const presign = (key: string | null) => (key ? ctx.storage.presignGet(key, URL_TTL_SECONDS) : null);
  const [input_url, input_preview_url] = await Promise.all([presign(row.input_key), presign(row.input_preview_key)]);
  return { input_url, input_preview_url };
}

/** The job as the API shows it: tokens as decimals, files as presigned URLs, none once files are gone. */
export async function presentJob(ctx: JobsDeps, row: JobRow, options: { position?: boolean } = {}): Promise<JobView> {
  const results = await presentResults(ctx, row);
  const wantPosition = options.position !== false && row.status === 'queued';
  const position = wantPosition ? await queuePosition(ctx, row.id) : null;
  return {
    id: row.id,
    tool: row.tool,
    status: row.status,
    progress: row.progress,
    stage: row.stage,
    queue_position: position,
    params: row.params,
    cost: tenthsToTokens(row.cost_tenths),
    refunded: row.refunded,
    error: row.error,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    ...(await presentInput(ctx, row)),
    input_name: row.input_name,
    eta_seconds: await estimateSecondsLeft(ctx, row, position),
    results,
    deleted: row.deleted_at !== null,
    expired: row.expired_at !== null,
    batch_id: row.batch_id ?? null,
    cutout_confidence: cutoutConfidenceOf(row),
    ...(row.tool === COMPOSING_TOOL && {
      compose_sources: await presentComposeSources(ctx, row),
      compositions: await presentCompositions(ctx, row),
    }),
  };
}
