import { z } from 'zod';
import { PASSWORD_MESSAGES, passwordProblem } from './password';

/** zod schema applying the password rule with its messages. */
export const passwordSchema = z.string({ error: PASSWORD_MESSAGES.required }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
