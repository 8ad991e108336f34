import { ApiRequestError } from '../../../lib/api/api-error';

/** What a console change ended with: done, or a message and the server's first error per field. */
export interface ChangeOutcome {
  ok: boolean;
  message: string | null;
  fieldErrors: Record<string, string>;
}

export const DONE: ChangeOutcome = { ok: true, message: null, fieldErrors: {} };

/** A failed change as the form shows it: each field's first message, else the server's message. */
export function failed(err: unknown, fallback: string): ChangeOutcome {
  if (err instanceof ApiRequestError && err.kind === 'http') {
    const fieldErrors = Object.fromEntries(
      Object.entries(err.fieldErrors).map(([field, messages]) => [field, messages?.[0] ?? '']),
    );
    return { ok: false, message: err.message || fallback, fieldErrors };
  }
  return { ok: false, message: fallback, fieldErrors: {} };
}
