/** The password rule: 6-12 characters, one upper case, one lower case, one digit, no spaces. */
export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  length: 'Password must be 6-12 characters long',
  upper: 'Password must contain at least one uppercase letter',
  lower: 'Password must contain at least one lowercase letter',
  digit: 'Password must contain at least one number',
  spaces: 'Password must not contain spaces',
} as const;

/** Returns the first rule the password breaks, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length === 0) return PASSWORD_MESSAGES.required;
  if (/\s/.test(password)) return PASSWORD_MESSAGES.spaces;
  if (password.length < 6 || password.length > 12) return PASSWORD_MESSAGES.length;
  if (!/[A-Z]/.test(password)) return PASSWORD_MESSAGES.upper;
  if (!/[a-z]/.test(password)) return PASSWORD_MESSAGES.lower;
  if (!/[0-9]/.test(password)) return PASSWORD_MESSAGES.digit;
  return null;
}
