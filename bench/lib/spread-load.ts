import autocannon from 'autocannon';
import { percentile } from './load';

export interface SpreadLoadResult {
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * Drives the same path on several loopback servers at once with `connections` clients in all (split evenly), for
 * `durationSeconds`, and returns percentiles over every response's own time (autocannon's summary has no p95).
 */
export async function spreadLoad(
  bases: string[],
  path: string,
  options: { connections: number; durationSeconds: number; headers?: Record<string, string> },
): Promise<SpreadLoadResult> {
  for (const base of bases) {
    if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(base))
      throw new Error(`benchmarks only target loopback, not ${base}`);
  }
  const times: number[] = [];
  const results = await Promise.all(
    bases.map((base, i) => {
      const connections =
        Math.floor(options.connections / bases.length) + (i < options.connections % bases.length ? 1 : 0);
      return new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${base}${path}`,
            connections,
            duration: options.durationSeconds,
            ...(options.headers ? { headers: options.headers } : {}),
          },
          (err: unknown, result) =>
            err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
        );
        instance.on('response', (_client, _status, _bytes, responseTime) => void times.push(responseTime));
      });
    }),
  );
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  const non2xx = results.reduce((sum, r) => sum + r.non2xx, 0);
  return {
    requests: times.length,
    requestsPerSec: Math.round(times.length / options.durationSeconds),
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    errors,
    non2xx,
  };
}
