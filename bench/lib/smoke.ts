/**
 * `npm run bench -- --smoke`: every section once, each with one tiny input, so CI sees a bench that no longer runs
 * (a changed route, a renamed module, a refused session) before anyone needs its figures. The figures of a smoke
 * run mean nothing and its goals are not judged; only a section that fails counts.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** The measured size, or the smoke run's tiny one. */
export function sized<T>(measured: T, smoke: T): T {
  return SMOKE ? smoke : measured;
}
