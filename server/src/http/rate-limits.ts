import { randomUUID } from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppDeps } from '../context';
import { AppError } from '../lib/errors';

/** The limits of the Accounts issue; all counters live in Redis, so every API process shares them. */
export const RATE_LIMITS = {
  /** Consecutive failed logins per email + IP; a success clears the count. */
  loginConsecutive: { points: 10, duration: 15 * 60 },
  /** Failed logins per account (email) per hour, from any address. */
  loginPerAccount: { points: 100, duration: 60 * 60 },
  /** Password-reset requests per email address per hour. */
  resetPerEmail: { points: 5, duration: 60 * 60 },
  /** Registrations per IP per hour. */
  registerPerIp: { points: 10, duration: 60 * 60 },
  /** Verification emails re-sent per user per hour. */
  verificationPerUser: { points: 6, duration: 60 * 60 },
} as const;

export type LimitName = keyof typeof RATE_LIMITS;
export type Limiters = Record<LimitName, RateLimiterRedis>;

/** The app's limiters: the fixed ones of RATE_LIMITS and those whose points come from the configuration. */
export interface RateLimits {
  fixed: Limiters;
  /** A limiter of its own, made once per name, under the same key prefix as the fixed ones. */
  named(name: string, points: number, duration: number): RateLimiterRedis;
}

/** Builds the app's limiters. Tests without RATE_LIMIT_PREFIX get a private prefix per app. */
export function createRateLimits(ctx: Pick<AppDeps, 'config' | 'redis'>): RateLimits {
  const base =
    ctx.config.RATE_LIMIT_PREFIX ?? (ctx.config.NODE_ENV === 'test' ? `rl-test-${randomUUID().slice(0, 8)}` : 'rl');
  const make = (name: string, options: { points: number; duration: number }) =>
    new RateLimiterRedis({ storeClient: ctx.redis, useRedisPackage: true, keyPrefix: `${base}:${name}`, ...options });
  const fixed = Object.fromEntries(
    Object.entries(RATE_LIMITS).map(([name, options]) => [name, make(name, options)]),
  ) as Limiters;
  const named = new Map<string, RateLimiterRedis>();
  return {
    fixed,
    named(name, points, duration) {
      let limiter = named.get(name);
      if (!limiter) named.set(name, (limiter = make(name, { points, duration })));
      return limiter;
    },
  };
}

/** The 429 envelope with a Retry-After header. */
export function tooManyRequests(msBeforeNext: number, message = 'Too many requests. Please wait a moment.'): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(seconds) } });
}

/**
 * Reserves one event against a limiter before the work it limits, in one atomic Redis increment; throws
 * the 429 when the limit is used up. Checking first and counting after the work would let a burst of
 * concurrent requests all pass the check: reserving first lets at most `points` of them through.
 */
export async function consumeOrThrow(
  limiter: RateLimiterRedis,
  key: string,
  message?: string | ((msBeforeNext: number) => string),
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes)
      throw tooManyRequests(err.msBeforeNext, typeof message === 'function' ? message(err.msBeforeNext) : message);
    throw err;
  }
}

/** Gives back a point reserved by consumeOrThrow for an event that, in the end, does not count. */
export async function refund(limiter: RateLimiterRedis, key: string): Promise<void> {
  await limiter.reward(key, 1);
}
