import type { Response } from 'express';
import { JOB_MESSAGES, isFinalJobStatus } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import {
  admitJobs,
  cancelOpenJob,
  cleanInput,
  failJob,
  jobsRepository as repo,
  type JobRow,
  refundSucceededJob,
  waitForFinalJob,
} from '../jobs';
import { assertToolAvailable } from '../workers';
import type { CleanImage } from '../uploads';
import { RemoveBgError } from './removebg-errors';

/** Seconds a 503 after a cancelled wait asks the client to wait before trying again. */
const RETRY_AFTER_TIMEOUT_S = 10;

interface RemoveBgJob {
  userId: string;
  requestId: string;
  /** The tool's params, as its definition parsed them from the adapter's fields. */
  params: Record<string, unknown>;
  costTenths: number;
  input: { image: CleanImage; name: string | null };
  /** bg_image_file / bg_image_url, checked and cleaned: the tool's `background_image`, stored beside the input. */
  background: CleanImage | null;
}

/**
 * One remove.bg call as one job of our remove-background tool, on the same path as every tool call: the tool's
 * availability (503 before charging), then admitJobs (balance, input stored, charge and row in one transaction,
 * queue), so it shows in the customer's history and ledger like any other job. Returns the admitted row.
 */
export async function admitRemoveBgJob(ctx: AppContext, job: RemoveBgJob): Promise<JobRow> {
  await assertToolAvailable(ctx, 'remove-background');
  const { jobs } = await admitJobs(ctx, {
    userId: job.userId,
    tool: 'remove-background',
    requestId: job.requestId,
    jobs: [
      {
        params: job.params,
        costTenths: job.costTenths,
        input: {
          ...cleanInput(job.input.image, job.input.name),
          ...(job.background && {
            files: { background_image: { bytes: job.background.bytes, contentType: job.background.contentType } },
          }),
        },
      },
    ],
  });
  return jobs[0]!;
}

/** Whether the caller has hung up (its connection is gone): nobody could receive an answer any more. */
export function callerGone(res: Response): boolean {
  return res.destroyed || !res.socket || res.socket.destroyed;
}

/**
 * The caller hung up: nobody can receive the picture, so the job is cancelled and refunded whatever its state, and
 * a result that came anyway is refunded too (remove.bg's clients retry after a timeout, and paid twice).
 */
async function dropForGoneCaller(ctx: AppContext, jobId: string): Promise<void> {
  await cancelOpenJob(ctx, jobId);
  const detail = 'the remove.bg caller hung up';
  const cancelled = await failJob(ctx, jobId, { message: JOB_MESSAGES.cancelled, detail, cancelled: true });
  if (!cancelled) await refundSucceededJob(ctx, jobId, detail);
}

/**
 * Waits for the job like a synchronous call of our own API (REMOVEBG_SYNC_TIMEOUT_S, 60 s). A job that has not
 * ended by then is cancelled, which refunds it; the late caller gets 503 with Retry-After. A caller who hung up (also
 * before this wait began) gets nothing and pays nothing: the job is cancelled, or refunded if it succeeded. Returns
 * the ended row, or null when the caller is gone.
 */
export async function waitForRemoveBgJob(ctx: AppContext, res: Response, row: JobRow): Promise<JobRow | null> {
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.on('close', onClose);
  if (callerGone(res)) gone.abort();
  let ended: JobRow;
  try {
    ended = await waitForFinalJob(ctx, row.id, ctx.config.REMOVEBG_SYNC_TIMEOUT_S * 1000, gone.signal);
  } finally {
    res.off('close', onClose);
  }
  if (gone.signal.aborted) {
    await dropForGoneCaller(ctx, row.id);
    return null;
  }
  if (isFinalJobStatus(ended.status)) return ended;
  await cancelOpenJob(ctx, row.id);
  // The job may have ended between the last look and the cancel: then its result is the answer.
  const after = await repo.findById(ctx.db, row.id);
  if (after?.status === 'succeeded') return after;
  throw new RemoveBgError(
    503,
    'timeout',
    'Processing timed out',
    `The image was not ready within ${ctx.config.REMOVEBG_SYNC_TIMEOUT_S} s; the call was cancelled and nothing was charged.`,
    { 'Retry-After': String(RETRY_AFTER_TIMEOUT_S) },
  );
}

/** A job that ended without a result: it was refunded; remove.bg's clients get an error they can show. */
export function failedJobError(row: JobRow): RemoveBgError {
  const detail = `${row.error ?? 'The image could not be processed.'} Nothing was charged.`;
  if (row.status === 'cancelled') return new RemoveBgError(503, 'cancelled', 'Processing cancelled', detail);
  return new RemoveBgError(500, 'processing_failed', 'Processing failed', detail);
}

/**
 * remove.bg answers a photo without any subject with 400 `unknown_foreground` and charges nothing: the tool reports
 * no subject box for its result (an empty matte), so the job is refunded and the call refused.
 */
export async function refuseWithoutSubject(ctx: AppContext, row: JobRow): Promise<void> {
  if (row.result?.subjectBoxes?.[0] !== null) return;
  await refundSucceededJob(ctx, row.id, 'no foreground found');
  throw new RemoveBgError(
    400,
    'unknown_foreground',
    'Could not identify foreground in image',
    'No subject was found in the image. Nothing was charged.',
  );
}
