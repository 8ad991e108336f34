import { inputPreviewKey } from '@imagestudio/runtime';
import { makeInputPreview } from '../uploads';
import type { PendingPreview } from './job-inputs';
import type { JobsDeps } from './jobs.deps';
import { notifyJobChanged } from './job-updates';
import * as repo from './jobs.repository';

/**
 * Makes the browser previews of admitted jobs' inputs (HEIC, AVIF, TIFF, large photos: uploads/input-preview.ts),
 * after the reply: each is read back from S3, made (a few at a time in the process), stored beside its input and
 * written on the job's row, and open event streams are told, so the view's "before" appears a moment later.
 * Accepting the jobs decodes nothing (a batch of 20 large photos once took 5 s to accept while its previews
 * were made). A preview that cannot be made costs the job nothing: the views fall back to the input. Never throws.
 */
export function makeInputPreviews(ctx: JobsDeps, userId: string, pending: PendingPreview[]): Promise<void> {
  return Promise.all(
    pending.map((job) =>
      makeOne(ctx, userId, job).catch((err: unknown) => {
        ctx.logger.warn({ err, jobId: job.jobId }, 'input preview could not be made');
      }),
    ),
  ).then(() => undefined);
}

async function makeOne(ctx: JobsDeps, userId: string, { jobId, inputKey }: PendingPreview): Promise<void> {
  const preview = await makeInputPreview(() => ctx.storage.get(inputKey));
  const key = inputPreviewKey({ userId, jobId });
  await ctx.storage.put(key, preview.bytes, 'image/webp');
  // A job deleted meanwhile had its inputs removed before this file existed: remove it too.
  if (await repo.setInputPreviewKey(ctx.db, jobId, key)) notifyJobChanged(ctx, jobId);
  else await ctx.storage.deletePrefix(key);
}
