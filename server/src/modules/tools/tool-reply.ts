import type { Request, Response } from 'express';
import { isFinalJobStatus, toolCallQuerySchema } from '@imagestudio/contracts';
import { sendOk } from '../../http/envelope';
import { checkCallbackUrl, registerCallback } from '../job-webhooks';
import { presentJob, type JobRow, type SubmitOutcome, waitForFinalJob } from '../jobs';
import type { ToolsDeps } from './tools.deps';

/** How a tool call wants its answer: wait for the end (seconds, 0 = no), and a webhook when it ends. */
export interface ReplyOptions {
  waitSeconds: number;
  callbackUrl?: string;
}

/** Reads `?wait=` and the `callback_url` field (checked against the webhook rules); both before any charge. */
export async function replyOptions(ctx: ToolsDeps, req: Request, callbackField: unknown): Promise<ReplyOptions> {
  const { wait } = toolCallQuerySchema.parse(req.query);
  return { waitSeconds: wait, callbackUrl: await checkCallbackUrl(ctx.config, callbackField) };
}

/**
 * The image itself, when the job succeeded with exactly one file and the caller prefers that file's
 * type to JSON (`Accept: image/png`, `image/*`, ...). Returns false when JSON should be sent instead.
 */
async function sendImage(ctx: ToolsDeps, req: Request, res: Response, row: JobRow): Promise<boolean> {
  const files = row.result?.files ?? [];
  if (row.status !== 'succeeded' || files.length !== 1 || row.deleted_at || row.expired_at) return false;
  const file = files[0]!;
  const mime = `image/${file.format}`;
  if (req.accepts(['application/json', mime]) !== mime) return false;
  const bytes = await ctx.storage.get(file.key);
  res.status(200).type(mime).set({ 'X-Job-Id': row.id, 'Cache-Control': 'private, no-store' }).send(bytes);
  return true;
}

/**
 * Answers a tool call: 202 with the accepted job; with `wait`, the job once it has ended (200), or
 * still 202 when it has not within the wait; with an image Accept header, a single-result job's bytes.
 */
export async function replyToToolCall(
  ctx: ToolsDeps,
  req: Request,
  res: Response,
  outcome: SubmitOutcome,
  options: ReplyOptions,
): Promise<void> {
  let row = outcome.job;
  if (options.callbackUrl) await registerCallback(ctx, row.id, row.user_id, options.callbackUrl);
  if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
  if (options.waitSeconds > 0 && !isFinalJobStatus(row.status)) {
    // A client that hangs up ends the wait (the job itself goes on).
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.on('close', onClose);
    try {
      row = await waitForFinalJob(ctx, row.id, options.waitSeconds * 1000, gone.signal);
    } finally {
      res.off('close', onClose);
    }
    if (gone.signal.aborted) return;
  }
  const ended = options.waitSeconds > 0 && isFinalJobStatus(row.status);
  if (ended && (await sendImage(ctx, req, res, row))) return;
  sendOk(res, await presentJob(ctx, row), {}, ended ? 200 : 202);
}
