import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { ApiError, FieldErrors } from '@imagestudio/contracts';
import { AppError, validationError } from '../lib/errors';
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

/** What the body readers' (body-parser's) refusals tell a client. */
export const BODY_MESSAGES = {
  tooLarge: 'The request body is too large.',
  tooManyFields: 'The form has too many fields.',
  invalidJson: 'The request body is not valid JSON.',
  unreadableForm: 'The request body is not valid form data.',
  tooSlow: 'The request body arrived too slowly and was stopped.',
  incomplete: 'The request body was not received completely.',
} as const;

/** A client error of http-errors (body-parser's and Express's own): its status and message are meant to be sent. */
function exposedClientError(err: unknown): err is { status: number; message: unknown } {
  const { status, expose } = (err ?? {}) as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}

/**
 * The failures that are no fault of ours, as the AppError a client is told (null for anything else): body-parser's
 * refusals by their `type`, and a dependency (Redis, S3) that cannot be reached. Shared by the /api error handler and
 * the remove.bg-compatible one, which says the same thing in its own shape. Each is logged at the level it deserves:
 * a client that hangs up mid-body or sends too much is no error of the server's (info), an unreachable dependency is
 * the operator's concern (warn); neither is an `unhandled error`.
 */
export function knownFailure(err: unknown, req: Request): AppError | null {
  const type = (err as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.too.large':
      return new AppError('payload_too_large', BODY_MESSAGES.tooLarge);
    case 'parameters.too.many':
      // A urlencoded form over the reader's field count: refused as a whole, like a multipart form with too many
      // fields, under `form`.
      return validationError({ form: [BODY_MESSAGES.tooManyFields] });
    case 'entity.parse.failed':
      return new AppError('invalid_json', BODY_MESSAGES.invalidJson);
    case 'request.aborted':
    case 'request.size.invalid':
      // The client hung up (or sent fewer bytes than it announced): nobody may be left to read the answer.
      req.log?.info({ type, received: (err as { received?: unknown }).received }, 'request body ended by the client');
      return new AppError('bad_request', BODY_MESSAGES.incomplete);
  }
  if (exposedClientError(err)) return null;
  if (dependencyUnreachable(err)) {
    req.log?.warn({ err: String((err as { message?: unknown } | null)?.message ?? err) }, 'dependency unavailable');
    return new AppError('service_unavailable', UNAVAILABLE_MESSAGE, { headers: { 'Retry-After': '5' } });
  }
  return null;
}

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
 * 422 field maps, body-parser failures become 400/413/422 (knownFailure), and anything else a logged 500 carrying the
 * request id so support can find it. A request that needed Redis while it is unreachable (an outage, a
 * restart) or S3 while it is unreachable gets 503 service_unavailable: nothing was charged or done, and
 * the same request succeeds once the dependency is back.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const requestId = String(req.id ?? '');
  let status = 500;
  let body: ApiError;
  const known = err instanceof AppError ? err : err instanceof ZodError ? null : knownFailure(err, req);
  if (known) {
    status = known.status;
    body = { status: 'ERROR', code: known.code, message: known.message };
    if (known.errors) body.errors = known.errors;
    if (known.headers) res.set(known.headers);
  } else if (err instanceof ZodError) {
    status = 422;
    const errors = zodToFieldErrors(err);
    body = {
      status: 'ERROR',
      code: 'validation_failed',
      message: Object.values(errors)[0]?.[0] ?? 'Invalid input.',
      errors,
    };
  } else if (exposedClientError(err)) {
    status = err.status;
    body = { status: 'ERROR', code: 'bad_request', message: String(err.message) };
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
