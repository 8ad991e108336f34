import { PASSWORD_MESSAGES, passwordProblem } from '@imagestudio/contracts';
import type { MessageKey } from '../../lib/i18n';

export type PasswordField = 'current_password' | 'password' | 'password_confirmation';

const RULE_KEYS: Record<string, MessageKey> = {
  [PASSWORD_MESSAGES.required]: 'shell.validation.passwordRequired',
  [PASSWORD_MESSAGES.length]: 'shell.validation.passwordLength',
  [PASSWORD_MESSAGES.upper]: 'shell.validation.passwordUpper',
  [PASSWORD_MESSAGES.lower]: 'shell.validation.passwordLower',
  [PASSWORD_MESSAGES.digit]: 'shell.validation.passwordDigit',
  [PASSWORD_MESSAGES.spaces]: 'shell.validation.passwordSpaces',
};

/**
 * Change Password checks, first failure wins: current password given; the new one keeps the shared
 * password rule (spec section 5); the confirmation is given and matches (a mismatch marks both fields).
 */
export function checkPasswordChange(form: Record<PasswordField, string>): { fields: PasswordField[]; key: MessageKey } | null {
  if (!form.current_password) return { fields: ['current_password'], key: 'client-payments.account.password.currentRequired' };
  const problem = passwordProblem(form.password);
  if (problem) return { fields: ['password'], key: RULE_KEYS[problem] ?? 'shell.validation.passwordLength' };
  if (!form.password_confirmation) return { fields: ['password_confirmation'], key: 'shell.validation.confirmPassword' };
  if (form.password !== form.password_confirmation) return { fields: ['password', 'password_confirmation'], key: 'shell.validation.passwordsMismatch' };
  return null;
}
