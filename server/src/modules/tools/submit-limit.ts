import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { JOB_MESSAGES } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../auth/auth-guards';
import { consumeOrThrow } from '../rate-limits/rate-limits';

const limiters = new WeakMap<AppContext, RateLimiterRedis>();

function limiterFor(ctx: AppContext): RateLimiterRedis {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    const base = ctx.config.RATE_LIMIT_PREFIX ?? (ctx.config.NODE_ENV === 'test' ? `rl-test-${randomUUID().slice(0, 8)}` : 'rl');
    limiter = new RateLimiterRedis({
      storeClient: ctx.redis,
      useRedisPackage: true,
      keyPrefix: `${base}:jobSubmit`,
      points: ctx.config.JOB_SUBMIT_RATE_PER_MINUTE,
      duration: 60,
    });
    limiters.set(ctx, limiter);
  }
  return limiter;
}

/** At most JOB_SUBMIT_RATE_PER_MINUTE tool submissions per user per minute (counted in Redis); 429 beyond. */
export function submitLimit(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    consumeOrThrow(limiterFor(ctx), currentUser(req).id, JOB_MESSAGES.tooManySubmissions).then(() => next(), next);
  };
}
