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

/** The password rule's first failure as a message key, or null when the password is acceptable (sign-up, reset, change). */
export function passwordRuleKey(password: string): MessageKey | null {
  const problem = passwordProblem(password);
  return problem ? (PASSWORD_KEYS[problem] ?? 'shell.validation.passwordLength') : null;
}
