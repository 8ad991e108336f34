import { PASSWORD_MESSAGES, passwordProblem } from '@imagestudio/contracts';
import type { MessageKey } from './i18n';

/** The shared password rule's messages (contracts) as keys of the strings table. */
const PASSWORD_KEYS: Record<string, MessageKey> = {
  [PASSWORD_MESSAGES.required]: 'shell.validation.passwordRequired',
  [PASSWORD_MESSAGES.length]: 'shell.validation.passwordLength',
  [PASSWORD_MESSAGES.upper]: 'shell.validation.passwordUpper',
  [PASSWORD_MESSAGES.lower]: 'shell.validation.passwordLower',
  [PASSWORD_MESSAGES.digit]: 'shell.validation.passwordDigit',
  [PASSWORD_MESSAGES.spaces]: 'shell.validation.passwordSpaces',
};

/** The longest password the rule accepts. */
const PASSWORD_MAX = 12;

/**
 * The password rule's first failure as a message key, or null when the password is acceptable (sign-up, reset,
 * change). Too long gets its own text: it is mostly a password manager's suggestion, which the customer never
 * typed and so cannot see is over the limit.
 */
export function passwordRuleKey(password: string): MessageKey | null {
  const problem = passwordProblem(password);
  if (problem === PASSWORD_MESSAGES.length && password.length > PASSWORD_MAX) return 'shell.validation.passwordTooLong';
  return problem ? (PASSWORD_KEYS[problem] ?? 'shell.validation.passwordLength') : null;
}

/**
 * Said while the new password is being entered, before any submit: only "too long", since a filled-in
 * suggestion arrives whole; the other rules wait for the submit so typing is not interrupted.
 */
export function passwordLiveKey(password: string): MessageKey | null {
  return password.length > PASSWORD_MAX ? 'shell.validation.passwordTooLong' : null;
}

/**
 * The rule in the form password managers read when they make up a password (the `passwordrules` attribute),
 * so their suggestion fits instead of being refused. Never a maxLength: that cuts a pasted or filled-in
 * password short without a word, and the customer saves a password they do not have.
 */
export const PASSWORD_RULES_ATTRIBUTE = {
  passwordrules: `minlength: 6; maxlength: ${PASSWORD_MAX}; required: upper; required: lower; required: digit; allowed: special;`,
};
