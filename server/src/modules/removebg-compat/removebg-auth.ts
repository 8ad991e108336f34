import type { RequestHandler, Response } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../../context';
import { authenticateKey, presentedKey } from '../api-keys';
import { readAccountSettings } from '../auth';
import { refund } from '../../http/rate-limits';
import { authFailed, RemoveBgError } from './removebg-errors';

/** The limit headers remove.bg's clients read, on every reply of an authenticated call. */
function setLimitHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.set({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)),
  });
}

/**
 * `X-Api-Key: <isk_live_ key>` (any letter case of the header; `Authorization: Bearer` works too) for the /v1.0
 * routes: the same keys, per-address guessing allowance, per-key limit (shared with /api calls by the same key)
 * and email-verification rule as our own API, answered the remove.bg way (403 `auth_failed`, 429
 * `rate_limit_exceeded` with Retry-After).
 */
export function removeBgAuth(ctx: AppContext): RequestHandler {
  const points = ctx.config.API_KEY_RATE_PER_MINUTE;
  const limiter = ctx.services.rateLimits.named('apiKey', points, 60);
  const failures = ctx.services.rateLimits.named('apiKeyFailPerIp', ctx.config.API_KEY_FAILURES_PER_IP_PER_MINUTE, 60);
  const run = async (req: Parameters<RequestHandler>[0], res: Response) => {
    const key = presentedKey(req);
    if (key === undefined) throw authFailed();
    const ip = req.ip ?? 'unknown';
    try {
      await failures.consume(ip);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retry = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw new RemoveBgError(429, 'rate_limit_exceeded', 'Rate limit exceeded', 'Too many invalid API keys.', {
        'Retry-After': retry,
      });
    }
    const found = await authenticateKey(ctx, key);
    if (!found) throw authFailed();
    await refund(failures, ip);
    try {
      setLimitHeaders(res, points, await limiter.consume(found.keyId));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      setLimitHeaders(res, points, err);
      const retry = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw new RemoveBgError(429, 'rate_limit_exceeded', 'Rate limit exceeded', undefined, { 'Retry-After': retry });
    }
    if (!found.user.email_verified_at && (await readAccountSettings(ctx)).requireEmailVerification) {
      throw new RemoveBgError(
        403,
        'email_not_verified',
        'Email address not verified',
        'Verify the email address of your account before using the API.',
      );
    }
    req.user = found.user;
    req.apiKeyId = found.keyId;
  };
  return (req, res, next) => {
    run(req, res).then(() => next(), next);
  };
}
