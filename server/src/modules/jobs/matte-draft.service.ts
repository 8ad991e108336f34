import type { MatteDraftStroke, MatteDraftView } from '@imagestudio/contracts';
import { canCompose } from './job-presenter';
import type { JobsDeps } from './jobs.deps';
import { jobNotFound, ownedJob } from './jobs.service';
import * as repo from './jobs.repository';

/**
 * The touch-up brush's draft (`/api/jobs/{id}/matte-draft`): the editor's strokes, saved as they are made so a
 * reload or a return to the job paints them again. Only for what the editor edits, the owner's succeeded
 * background removal with its stored cut-out (the compose routes' rule): any other job, and another user's, is the
 * same 404. The body is checked by the route's schema (caps included) before this runs; the draft is free and
 * leaves no ledger entry. Deleting the job's files or their expiry removes it (jobs.repository.ts markFilesGone).
 */
async function editableJob(ctx: JobsDeps, userId: string, jobId: string): Promise<repo.JobRow> {
  const row = await ownedJob(ctx, userId, jobId);
  if (!canCompose(row)) throw jobNotFound();
  return row;
}

function present(row: repo.MatteDraftRow | undefined): MatteDraftView {
  return row ? { strokes: row.strokes, updated_at: row.updated_at.toISOString() } : { strokes: [], updated_at: null };
}

export async function getMatteDraft(ctx: JobsDeps, userId: string, jobId: string): Promise<MatteDraftView> {
  const row = await editableJob(ctx, userId, jobId);
  return present(await repo.findMatteDraft(ctx.db, row.id));
}

/** Replaces the draft; a job whose files went while the request was on its way is a 404 like any gone job. */
export async function saveMatteDraft(
  ctx: JobsDeps,
  userId: string,
  jobId: string,
  strokes: MatteDraftStroke[],
): Promise<MatteDraftView> {
  const row = await editableJob(ctx, userId, jobId);
  const saved = await repo.saveMatteDraft(ctx.db, row.id, strokes);
  if (!saved) throw jobNotFound();
  return present(saved);
}

export async function discardMatteDraft(ctx: JobsDeps, userId: string, jobId: string): Promise<MatteDraftView> {
  const row = await editableJob(ctx, userId, jobId);
  await repo.deleteMatteDraft(ctx.db, row.id);
  return present(undefined);
}
