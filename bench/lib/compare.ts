import type { LoadResult } from './load';
import type { BenchGoal, BenchSection } from './types';

/** Failed requests of a load run: transport errors plus non-2xx answers. */
export const failures = (r: LoadResult): number => r.errors + r.non2xx;

/** Throughput of `r` as a share of the bare hello-world's, to two decimals. */
export function ratioToBare(r: LoadResult, bare: LoadResult): number {
  return Math.round((r.requestsPerSec / bare.requestsPerSec) * 100) / 100;
}

/** The table row for one measured endpoint. */
export function loadRow(endpoint: string, r: LoadResult, ratio: number): BenchSection['rows'][number] {
  return { endpoint, 'req/s': r.requestsPerSec, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, ratio, errors: failures(r) };
}

/** A "at least this share of bare Express" goal, met only when the run also had no failed requests. */
export function ratioGoal(label: string, ratio: number, r: LoadResult, goalRatio: number): BenchGoal {
  return { label, value: ratio, target: `>= ${goalRatio}`, met: ratio >= goalRatio && failures(r) === 0 };
}
