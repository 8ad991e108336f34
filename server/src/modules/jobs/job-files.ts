import { inputsPrefix, resultsPrefix } from '@imagestudio/runtime';
import { jobOwner } from './finalize.service';
import type { JobsDeps } from './jobs.deps';
import * as repo from './jobs.repository';
import type { JobRow } from './jobs.repository';

/**
 * Removes a job's stored files (input, its preview, results, re-compositions) and marks the row deleted or expired.
 * The prefixes are emptied, the row marked, then emptied once more: a re-composition or an input preview stored
 * during the first pass records itself only on a row not yet marked (and removes its file otherwise), so anything
 * recorded before the mark is caught by the second pass, and nothing is left under a job that lists no files.
 */
export async function removeJobFiles(ctx: JobsDeps, row: JobRow, column: 'deleted_at' | 'expired_at'): Promise<void> {
  const prefixes = [inputsPrefix(jobOwner(row)), resultsPrefix(jobOwner(row))];
  for (const prefix of prefixes) await ctx.storage.deletePrefix(prefix);
  await repo.markFilesGone(ctx.db, row.id, column);
  for (const prefix of prefixes) await ctx.storage.deletePrefix(prefix);
}
