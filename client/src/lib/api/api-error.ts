import type { FieldErrors } from '@imagestudio/contracts';

/** Why a call failed: no response at all, or an HTTP error status (or a non-OK envelope on 2xx). */
export type ApiErrorKind = 'network' | 'http';

/** The one error type every API call rejects with; stores read it, never transport internals. */
export class ApiRequestError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly code: string | null = null,
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }

  /** The first message of the first field error, if any. */
  firstFieldError(): string | null {
    for (const messages of Object.values(this.fieldErrors)) {
      if (messages && messages[0]) return messages[0];
    }
    return null;
  }
}

/** True for an ApiRequestError with one of the given HTTP statuses. */
export function hasStatus(err: unknown, ...statuses: number[]): err is ApiRequestError {
  return err instanceof ApiRequestError && err.status !== null && statuses.includes(err.status);
}

/** The server's message when there is one, else the caller's fallback. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiRequestError && err.kind === 'http' && err.message) return err.message;
  return fallback;
}
