import { RateLimiterMemory, type RateLimiterRedis } from 'rate-limiter-flexible';
import { RATE_LIMITS, type Limiters, type RateLimits } from '../../http/rate-limits';

/** The app's RateLimits with the counters in this process's memory instead of Redis (same points and windows). */
export interface MemoryRateLimits extends RateLimits {
  /** The limiter made under `name` by named(), if any, to read its counters. */
  limiter(name: string): RateLimiterMemory | undefined;
}

/** rate-limiter-flexible's memory limiter has the Redis one's consume/reward/get/delete: the services see no difference. */
const asRedis = (limiter: RateLimiterMemory) => limiter as unknown as RateLimiterRedis;

export function memoryRateLimits(): MemoryRateLimits {
  const fixed = Object.fromEntries(
    Object.entries(RATE_LIMITS).map(([name, options]) => [name, asRedis(new RateLimiterMemory({ ...options }))]),
  ) as Limiters;
  const named = new Map<string, RateLimiterMemory>();
  return {
    fixed,
    named(name, points, duration) {
      let limiter = named.get(name);
      if (!limiter) named.set(name, (limiter = new RateLimiterMemory({ keyPrefix: name, points, duration })));
      return asRedis(limiter);
    },
    limiter: (name) => named.get(name),
  };
}
