import type { ErrorRequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { AppError } from '../../lib/errors';
import { knownFailure } from '../../http/error-handler';

/**
 * The error shape of remove.bg's API, which its clients parse: `{"errors":[{"title","code","detail"}]}`. The
 * /v1.0 routes answer every failure in it (never the /api envelope), with remove.bg's code for each case.
 */
interface RemoveBgErrorBody {
  errors: Array<{ title: string; code: string; detail?: string }>;
}

export class RemoveBgError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(title);
    this.name = 'RemoveBgError';
  }
}

/** A 400 for a bad field value: remove.bg's code, a plain title, and what is accepted. */
export const badField = (code: string, title: string, detail?: string) => new RemoveBgError(400, code, title, detail);

export const authFailed = () => new RemoveBgError(403, 'auth_failed', 'API Key invalid');

/** Our API's own refusals, said the remove.bg way (the /v1.0 routes reuse the upload checks, limits and ledger). */
const FROM_APP: Partial<Record<AppError['code'], { status: number; code: string; title: string }>> = {
  insufficient_tokens: { status: 402, code: 'insufficient_credits', title: 'Insufficient credits' },
  rate_limited: { status: 429, code: 'rate_limit_exceeded', title: 'Rate limit exceeded' },
  payload_too_large: { status: 400, code: 'file_too_large', title: 'File too large' },
  request_timeout: { status: 408, code: 'request_timeout', title: 'Request timeout' },
  email_not_verified: { status: 403, code: 'email_not_verified', title: 'Email address not verified' },
  service_unavailable: { status: 503, code: 'service_unavailable', title: 'Service unavailable' },
  tool_unavailable: { status: 503, code: 'service_unavailable', title: 'Service unavailable' },
  unauthenticated: { status: 403, code: 'auth_failed', title: 'API Key invalid' },
};

/** Any error as a RemoveBgError; null when it is a fault of ours (logged and answered as a 500). */
function toRemoveBgError(err: unknown): RemoveBgError | null {
  if (err instanceof RemoveBgError) return err;
  if (err instanceof AppError) {
    const mapped = FROM_APP[err.code];
    if (mapped) return new RemoveBgError(mapped.status, mapped.code, mapped.title, err.message, err.headers);
    if (err.code === 'validation_failed' || err.code === 'bad_request' || err.code === 'invalid_json')
      return badField('invalid_request', 'Invalid request', err.message);
    return null;
  }
  if (err instanceof ZodError) return badField('invalid_request', 'Invalid request', err.issues[0]?.message);
  // express.json / urlencoded: an oversized body or one that is not what its Content-Type says.
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return badField('file_too_large', 'File too large');
  if (type === 'entity.parse.failed' || type === 'charset.unsupported' || type === 'encoding.unsupported')
    return badField('invalid_request', 'Invalid request', 'The request body could not be read.');
  return null;
}

function sendRemoveBgError(res: Response, err: RemoveBgError): void {
  const body: RemoveBgErrorBody = {
    errors: [{ title: err.title, code: err.code, ...(err.detail ? { detail: err.detail } : {}) }],
  };
  res.status(err.status).set(err.headers).set('Cache-Control', 'no-store').json(body);
}

/** The /v1.0 routes' error handler: remove.bg's shape for every failure, ours logged as a 500. */
export const removeBgErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  // Then the failures the /api handler also knows (a form with too many fields, a client that hung up mid-body, Redis
  // or S3 unreachable), said the remove.bg way: a 400 or a 503, not a logged 500 `unknown_error`.
  const known = toRemoveBgError(err) ?? toRemoveBgError(knownFailure(err, req));
  if (known) return sendRemoveBgError(res, known);
  req.log?.error({ err }, 'remove.bg-compatible API failed');
  sendRemoveBgError(res, new RemoveBgError(500, 'unknown_error', 'Internal server error'));
};
