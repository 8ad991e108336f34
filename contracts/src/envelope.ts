/** Field name -> list of user-facing messages, as sent in a 422 body. */
export type FieldErrors = Record<string, string[]>;

/** Every successful /api reply: `payload` plus the few top-level fields the client reads (docs/api-conventions.md). */
export interface ApiOk<T> {
  status: 'OK';
  payload?: T;
  message?: string;
  authenticated?: boolean;
  emailVerified?: boolean;
  redirect_url?: string;
}

/** Every failed /api reply. `errors` only on 422 validation failures. */
export interface ApiError {
  status: 'ERROR';
  message: string;
  code: ErrorCode;
  errors?: FieldErrors;
  request_id?: string;
}

export type ApiReply<T> = ApiOk<T> | ApiError;

/** Stable machine-readable error codes; clients branch on these, never on messages. */
export const ERROR_CODES = [
  'bad_request',
  'invalid_json',
  'unauthenticated',
  'forbidden',
  'csrf_invalid',
  'email_not_verified',
  'registration_disabled',
  'insufficient_tokens',
  'not_found',
  'conflict',
  'payload_too_large',
  'validation_failed',
  'rate_limited',
  'service_unavailable',
  'tool_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
