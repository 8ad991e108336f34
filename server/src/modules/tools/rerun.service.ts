import type { JobView } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { admitJobs, filesAreGone, ownedJob, presentJob, storedJobInput, type JobsDeps } from '../jobs';
import { readToolSettings, toolDefinition } from '../tool-definitions';
import { withFileFlags } from '../uploads';
import { assertToolAvailable } from '../workers';

/**
 * POST /api/jobs/{id}/rerun: runs one of the caller's jobs again, with a copy of its stored input (and further
 * files, such as a background image), as a new job charged at today's price: with its own options, or with the
 * tool's option fields in the body (checked as the tool's own call checks them). The page that opened a job by
 * URL, from projects or after a reload can run it again without the file being chosen again.
 * 404 for another user's job; 409 once its files are gone (deleted or past retention).
 */
export async function rerunJob(
  ctx: JobsDeps,
  userId: string,
  jobId: string,
  meta: { requestId?: string },
  fields: Record<string, unknown> | null = null,
): Promise<JobView> {
  const old = await ownedJob(ctx, userId, jobId);
  if (filesAreGone(old) || (old.input_key === null && toolDefinition(old.tool).contract.takesImage)) {
    throw new AppError('conflict', 'The image of this job is no longer stored. Upload it again.');
  }
  await assertToolAvailable(ctx, old.tool);
  const definition = toolDefinition(old.tool);
  const settings = await readToolSettings(ctx);
  // The further files the job has stored (a background image) stay part of the run.
  const storedFiles = (definition.contract.fileFields ?? []).filter((field) => old.params[field] === true);
  const params =
    fields && Object.keys(fields).length > 0
      ? definition.parse(withFileFlags(fields, definition.contract.fileFields, storedFiles), settings)
      : old.params;
  await definition.assertRunnable?.(ctx, params);
  const fileFields = storedFiles.filter((field) => params[field] === true);
  const { jobs } = await admitJobs(ctx, {
    userId,
    tool: old.tool,
    requestId: meta.requestId,
    jobs: [
      {
        params,
        costTenths: definition.costTenths(settings, params),
        input: old.input_key
          ? storedJobInput(ctx, { userId, jobId: old.id }, { ...old, input_key: old.input_key }, fileFields)
          : undefined,
      },
    ],
  });
  return presentJob(ctx, jobs[0]!);
}
