import { ERROR_STATUS, type ErrorCode, type FieldErrors } from '@imagestudio/contracts';

/**
 * The one error family of the API, built from a code: the HTTP status comes from the code's entry in
 * ERROR_STATUS, so a code is always sent with the same status. Anything thrown that is not an AppError (or a
 * zod error, mapped to 422) becomes a logged 500 with a generic message in the error handler.
 */
export class AppError extends Error {
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: { errors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.errors = extra.errors;
    this.headers = extra.headers;
  }
}

/** 422 with a field -> messages map; the message is the first field message, as the client shows it. */
export function validationError(errors: FieldErrors, message?: string): AppError {
  const first = Object.values(errors).find((list) => list.length > 0)?.[0];
  return new AppError('validation_failed', message ?? first ?? 'The given data was invalid.', { errors });
}

export const notFound = (message = 'Not found.') => new AppError('not_found', message);
export const unauthenticated = () => new AppError('unauthenticated', 'Unauthenticated.');
export const forbidden = (message = 'Access forbidden') => new AppError('forbidden', message);
export const serviceUnavailable = (message: string, headers?: Record<string, string>) =>
  new AppError('service_unavailable', message, { headers });
