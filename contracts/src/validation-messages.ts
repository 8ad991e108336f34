import { z } from 'zod';

/**
 * What a user reads when a value fails a check that has no message of its own (a query `page=-1`, a
 * wrong type): short sentences that the server's strings translate, never zod's developer wording
 * ("Too small: expected number to be >=1"). Schemas with their own messages keep them; this is zod's
 * lowest-priority message map, installed once when contracts load.
 */
export const VALIDATION_MESSAGES = {
  required: 'This field is required.',
  invalid: 'Please enter a valid value.',
  tooSmall: 'Must be at least {n}.',
  tooBig: 'Must be at most {n}.',
  tooShort: 'Must be at least {n} characters long.',
  tooLong: 'Must be at most {n} characters long.',
} as const;

const M = VALIDATION_MESSAGES;

/** The message for one zod issue (exported for tests). */
export function validationMessage(issue: z.core.$ZodRawIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return M.required;
  if (issue.code === 'too_small')
    return (issue.origin === 'string' ? M.tooShort : M.tooSmall).replace('{n}', String(issue.minimum));
  if (issue.code === 'too_big')
    return (issue.origin === 'string' ? M.tooLong : M.tooBig).replace('{n}', String(issue.maximum));
  return M.invalid;
}

z.config({ localeError: validationMessage });
