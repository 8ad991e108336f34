import type { MessageKey } from '../../lib/i18n';
import { passwordRuleKey } from '../../lib/password-rule';

/** A simple email shape check (the server does the real one). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface FieldProblem<F extends string> {
  /** Fields to mark (a mismatch marks both password fields). */
  fields: F[];
  key: MessageKey;
}

export function validateLogin(input: { email: string; password: string }): FieldProblem<'email' | 'password'> | null {
  if (!input.email.trim() || !input.password)
    return { fields: input.email.trim() ? ['password'] : ['email'], key: 'shell.validation.emailPasswordRequired' };
  if (!EMAIL_PATTERN.test(input.email.trim())) return { fields: ['email'], key: 'shell.validation.invalidEmailFormat' };
  return null;
}

export type RegisterFormField = 'firstName' | 'lastName' | 'email' | 'phone' | 'password' | 'confirmPassword' | 'terms';

export interface RegisterForm {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  phoneValid: boolean;
  password: string;
  confirmPassword: string;
  terms: boolean;
}

/** The first failing rule, from the name down to the terms (docs/product-behaviour.md#validation-order-and-texts). */
export function validateRegister(form: RegisterForm): FieldProblem<RegisterFormField> | null {
  if (!form.firstName.trim()) return { fields: ['firstName'], key: 'shell.validation.nameRequired' };
  if (!form.lastName.trim()) return { fields: ['lastName'], key: 'shell.validation.surnameRequired' };
  if (!form.email.trim()) return { fields: ['email'], key: 'shell.validation.emailRequired' };
  if (!EMAIL_PATTERN.test(form.email.trim())) return { fields: ['email'], key: 'shell.validation.validEmail' };
  if (!form.phone.trim()) return { fields: ['phone'], key: 'shell.validation.phoneRequired' };
  if (!form.phoneValid) return { fields: ['phone'], key: 'shell.validation.validPhone' };
  if (!form.password) return { fields: ['password'], key: 'shell.validation.passwordRequired' };
  const rule = passwordRuleKey(form.password);
  if (rule) return { fields: ['password'], key: rule };
  if (!form.confirmPassword) return { fields: ['confirmPassword'], key: 'shell.validation.confirmPassword' };
  if (form.password !== form.confirmPassword)
    return { fields: ['password', 'confirmPassword'], key: 'shell.validation.passwordsMismatch' };
  if (!form.terms) return { fields: ['terms'], key: 'shell.validation.acceptTerms' };
  return null;
}

export function validateForgot(email: string): FieldProblem<'email'> | null {
  if (!email.trim()) return { fields: ['email'], key: 'shell.validation.enterEmail' };
  if (!EMAIL_PATTERN.test(email.trim())) return { fields: ['email'], key: 'shell.validation.validEmail' };
  return null;
}

export function validateReset(input: {
  password: string;
  confirmPassword: string;
}): FieldProblem<'password' | 'confirmPassword'> | null {
  if (!input.password) return { fields: ['password'], key: 'shell.validation.passwordRequired' };
  const rule = passwordRuleKey(input.password);
  if (rule) return { fields: ['password'], key: rule };
  if (!input.confirmPassword) return { fields: ['confirmPassword'], key: 'shell.validation.confirmPassword' };
  if (input.password !== input.confirmPassword)
    return { fields: ['password', 'confirmPassword'], key: 'shell.validation.passwordsMismatch' };
  return null;
}
