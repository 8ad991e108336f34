/** Field name -> list of user-facing messages, as sent in a 422 body. */
export type FieldErrors = Record<string, string[]>;

/** The few top-level fields beside `payload` that the client reads (docs/api-conventions.md). */
export interface ApiOkExtras {
  message?: string;
  authenticated?: boolean;
  emailVerified?: boolean;
  redirect_url?: string;
}

/**
 * Every successful /api reply: `{status:"OK", payload}` plus the extras. A route with a payload always sends
 * it, so `payload` is required wherever T is a real type; only a route without one (T undefined) leaves it out.
 */
export type ApiOk<T> = { status: 'OK' } & ApiOkExtras &
  ([T] extends [undefined] ? { payload?: undefined } : { payload: T });

/** Every failed /api reply. `errors` only on 422 validation failures. */
export interface ApiError {
  status: 'ERROR';
  message: string;
  code: ErrorCode;
  errors?: FieldErrors;
  request_id?: string;
}

export type ApiReply<T> = ApiOk<T> | ApiError;

/**
 * Stable machine-readable error codes, each with the one HTTP status it is sent with; clients branch on the
 * code, never on the message.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  csrf_invalid: 403,
  email_not_verified: 403,
  registration_disabled: 403,
  reauth_required: 403,
  insufficient_tokens: 402,
  not_found: 404,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  service_unavailable: 503,
  tool_unavailable: 503,
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
