import { resultDownloadName, tenthsToTokens, type JobResultView, type JobView } from '@imagestudio/contracts';
import { estimateSecondsLeft } from './job-estimate';
import type { AppContext } from '../../context';
import type { JobRow } from './jobs.repository';

/** Presigned URLs live this long (the 15 minutes). */
export const URL_TTL_SECONDS = 15 * 60;

/**
 * 1-based place of a waiting job in the BullMQ wait list (producers push on the left, workers take from
 * the right), or null when it is not waiting there (running, retry back-off, finished).
 */
export async function queuePosition(ctx: AppContext, jobId: string): Promise<number | null> {
  try {
    const key = ctx.queue.keys.wait!;
    const index = await ctx.queueRedis.lPos(key, jobId, { RANK: -1 });
    if (index === null) return null;
    const length = await ctx.queueRedis.lLen(key);
    return length - index;
  } catch {
    return null;
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The job as the API shows it: tokens as decimals, files as presigned URLs, none once files are gone. */
export async function presentJob(ctx: AppContext, row: JobRow, options: { position?: boolean } = {}): Promise<JobView> {
  const filesGone = row.deleted_at !== null || row.expired_at !== null;
  const results: JobResultView[] =
    row.status === 'succeeded' && row.result && !filesGone
      ? await Promise.all(
          row.result.files.map(async (f, i) => ({
            url: await ctx.storage.presignGet(f.key, URL_TTL_SECONDS, resultDownloadName(row, i, f.format)),
            width: f.width,
            height: f.height,
            format: f.format,
            bytes: f.bytes,
          })),
        )
      : [];
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
    input_url: row.input_key && !filesGone ? await ctx.storage.presignGet(row.input_key, URL_TTL_SECONDS) : null,
    input_name: row.input_name,
    eta_seconds: await estimateSecondsLeft(ctx, row, position),
    results,
    deleted: row.deleted_at !== null,
    expired: row.expired_at !== null,
  };
}
