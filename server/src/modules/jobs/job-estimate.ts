import { secondsLeft, type JobName } from '@imagestudio/contracts';
import { toolDefinition, type SizedJob } from '../tool-definitions';
import { recentRuns, type JobRow, type RecentRun } from './jobs.repository';
import type { JobsDeps } from './jobs.deps';

/** How many of a tool's latest successes the estimate learns from. */
const SAMPLE = 20;
/** A tool's recent runs are read again after this long (estimates are asked for on every progress push). */
const CACHE_MS = 30_000;

/**
 * The work in a job, in units whose cost is about the same from one job to the next (each tool's definition
 * says what they are); null when the job's size is not known.
 */
export function workUnits(tool: JobName, job: SizedJob): number | null {
  return toolDefinition(tool).workUnits(job);
}

/** Whether a recent run's timing can predict the job's (upscaling compares only runs of the same factor). */
function comparable(tool: JobName, job: SizedJob, run: SizedJob): boolean {
  return toolDefinition(tool).comparable?.(job, run) ?? true;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds the whole run of `job` should take: the median cost per unit of recent comparable runs. */
export function expectedRunMs(tool: JobName, job: SizedJob, runs: RecentRun[]): number | null {
  const units = workUnits(tool, job);
  if (units === null) return null;
  const perUnit = runs
    .filter((r) => comparable(tool, job, r))
    .map((r) => ({ ms: r.ms, units: workUnits(tool, r) }))
    .filter((r): r is { ms: number; units: number } => r.units !== null && r.units > 0 && r.ms > 0)
    .map((r) => r.ms / r.units);
  return perUnit.length > 0 ? median(perUnit) * units : null;
}

/** Per tool: its recent successful runs and when they were read. */
export type RecentRunsCache = Map<JobName, { at: number; runs: Promise<RecentRun[]> }>;

export function createRecentRunsCache(): RecentRunsCache {
  return new Map();
}

/**
 * The tool's recent successes, read at most once per CACHE_MS per process (a burst of submissions asks the
 * database once); a success finalised by this process forgets them, so it is learnt from at once.
 */
function cachedRuns(ctx: JobsDeps, tool: JobName): Promise<RecentRun[]> {
  const cache = ctx.services.recentRuns;
  const hit = cache.get(tool);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.runs;
  const runs = recentRuns(ctx.db, tool, SAMPLE).catch(() => []);
  cache.set(tool, { at: Date.now(), runs });
  return runs;
}

/** Drops the cached runs of a tool (a new success of it was just recorded). */
export function forgetRecentRuns(ctx: JobsDeps, tool: JobName): void {
  ctx.services.recentRuns.delete(tool);
}

/** Seconds left for an open job from the workers' recent timings for its tool and size; null otherwise. */
export async function estimateSecondsLeft(
  ctx: JobsDeps,
  row: JobRow,
  queuePosition: number | null,
): Promise<number | null> {
  if (row.status !== 'queued' && row.status !== 'running') return null;
  const expected = expectedRunMs(row.tool, row, await cachedRuns(ctx, row.tool));
  return secondsLeft(expected, {
    status: row.status,
    progress: row.progress,
    started_at: row.started_at,
    queuePosition,
    stage: row.stage,
  });
}
