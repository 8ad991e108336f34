import type { MessageKey } from '../../lib/i18n';
import { passwordRuleKey } from '../../lib/password-rule';

export type PasswordField = 'current_password' | 'password' | 'password_confirmation';

/**
 * Change Password checks, first failure wins: current password given; the new one keeps the shared
 * password rule (contracts/src/password.ts); the confirmation is given and matches (a mismatch marks both fields).
 */
export function checkPasswordChange(
  form: Record<PasswordField, string>,
): { fields: PasswordField[]; key: MessageKey } | null {
  if (!form.current_password)
    return { fields: ['current_password'], key: 'client-payments.account.password.currentRequired' };
  const ruleKey = passwordRuleKey(form.password);
  if (ruleKey) return { fields: ['password'], key: ruleKey };
  if (!form.password_confirmation)
    return { fields: ['password_confirmation'], key: 'shell.validation.confirmPassword' };
  if (form.password !== form.password_confirmation)
    return { fields: ['password', 'password_confirmation'], key: 'shell.validation.passwordsMismatch' };
  return null;
}
