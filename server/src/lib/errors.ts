import type { ErrorCode, FieldErrors } from '@imagestudio/contracts';

/**
 * The one error family of the API. Anything thrown that is not an AppError (or a zod error, mapped to
 * 422) becomes a logged 500 with a generic message in the error handler.
 */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly errors?: FieldErrors,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** 422 with a field -> messages map; the message is the first field message, as the client shows it. */
export function validationError(errors: FieldErrors, message?: string): AppError {
  const first = Object.values(errors).find((list) => list.length > 0)?.[0];
  return new AppError(422, 'validation_failed', message ?? first ?? 'The given data was invalid.', errors);
}

export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const unauthenticated = () => new AppError(401, 'unauthenticated', 'Unauthenticated.');
export const forbidden = (message = 'Access forbidden') => new AppError(403, 'forbidden', message);
export const serviceUnavailable = (message: string) => new AppError(503, 'service_unavailable', message);
