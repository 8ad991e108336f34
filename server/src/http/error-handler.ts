import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { ApiError, FieldErrors } from '@imagestudio/contracts';
import { AppError } from '../lib/errors';
import { isRedisUnavailable } from '@imagestudio/runtime';

const NETWORK_FAILURE = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;

/**
 * Whether a dependency (Redis, S3) could not be reached: node-redis's connection errors, or a socket
 * error code, which the AWS SDK may only carry in its message after wrapping it.
 */
function dependencyUnreachable(err: unknown): boolean {
  if (isRedisUnavailable(err)) return true;
  const { code, message, name } = (err ?? {}) as { code?: unknown; message?: unknown; name?: unknown };
  return (
    NETWORK_FAILURE.test(String(code ?? '')) || NETWORK_FAILURE.test(String(message ?? '')) || name === 'TimeoutError'
  );
}

/** What a request that needs an unreachable dependency (Redis, S3) is told; it may simply try again. */
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** Turns zod issues into the 422 field map, keeping only the first message per field order. */
export function zodToFieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Unknown /api paths: the 404 envelope (the SPA fallback handles every other path). */
export const apiNotFound: RequestHandler = (_req, _res, next) => {
  next(new AppError('not_found', 'Not found.'));
};

/**
 * The one error middleware. AppErrors keep their status and code, zod errors become
 * 422 field maps, body-parser failures become 400/413, and anything else a logged 500 carrying the
 * request id so support can find it. A request that needed Redis while it is unreachable (an outage, a
 * restart) or S3 while it is unreachable gets 503 service_unavailable: nothing was charged or done, and
 * the same request succeeds once the dependency is back.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const requestId = String(req.id ?? '');
  let status = 500;
  let body: ApiError;
  if (err instanceof AppError) {
    status = err.status;
    body = { status: 'ERROR', code: err.code, message: err.message };
    if (err.errors) body.errors = err.errors;
    if (err.headers) res.set(err.headers);
  } else if (err instanceof ZodError) {
    status = 422;
    const errors = zodToFieldErrors(err);
    body = {
      status: 'ERROR',
      code: 'validation_failed',
      message: Object.values(errors)[0]?.[0] ?? 'Invalid input.',
      errors,
    };
  } else if (err?.type === 'entity.too.large') {
    status = 413;
    body = { status: 'ERROR', code: 'payload_too_large', message: 'The request body is too large.' };
  } else if (err?.type === 'entity.parse.failed') {
    status = 400;
    body = { status: 'ERROR', code: 'invalid_json', message: 'The request body is not valid JSON.' };
  } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500 && err.expose) {
    status = err.status;
    body = { status: 'ERROR', code: 'bad_request', message: String(err.message) };
  } else if (dependencyUnreachable(err)) {
    status = 503;
    req.log?.warn({ err: String(err?.message ?? err) }, 'dependency unavailable');
    res.set('Retry-After', '5');
    body = { status: 'ERROR', code: 'service_unavailable', message: UNAVAILABLE_MESSAGE };
  } else {
    req.log?.error({ err }, 'unhandled error');
    body = {
      status: 'ERROR',
      code: 'internal_error',
      message: 'Server error. Please try again later.',
      request_id: requestId,
    };
  }
  if (res.headersSent) return;
  res.status(status).json(body);
};
