import type { RequestHandler } from 'express';
import { JOB_MESSAGES } from '@imagestudio/contracts';
import { currentUser } from '../../http/current-user';
import { consumeOrThrow } from '../../http/rate-limits';
import type { ToolsDeps } from './tools.deps';

/** At most JOB_SUBMIT_RATE_PER_MINUTE tool submissions per user per minute (counted in Redis); 429 beyond. */
export function submitLimit(ctx: ToolsDeps): RequestHandler {
  const limiter = ctx.services.rateLimits.named('jobSubmit', ctx.config.JOB_SUBMIT_RATE_PER_MINUTE, 60);
  return (req, _res, next) => {
    consumeOrThrow(limiter, currentUser(req).id, JOB_MESSAGES.tooManySubmissions).then(() => next(), next);
  };
}
