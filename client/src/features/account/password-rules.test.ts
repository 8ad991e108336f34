import { checkPasswordChange } from './password-rules';

const ok = { current_password: 'Secret12', password: 'Newpass34', password_confirmation: 'Newpass34' };

describe('change password checks (first failure wins)', () => {
  it('current password first, then the password rule, then the confirmation', () => {
    expect(checkPasswordChange({ current_password: '', password: '', password_confirmation: '' })).toEqual({
      fields: ['current_password'],
      key: 'client-payments.account.password.currentRequired',
    });
    expect(checkPasswordChange({ ...ok, password: '' })?.key).toBe('shell.validation.passwordRequired');
    expect(checkPasswordChange({ ...ok, password: 'Ab1' })?.key).toBe('shell.validation.passwordLength');
    expect(checkPasswordChange({ ...ok, password: 'Abcdefghij123' })?.key).toBe('shell.validation.passwordTooLong');
    expect(checkPasswordChange({ ...ok, password: 'newpass34' })?.key).toBe('shell.validation.passwordUpper');
    expect(checkPasswordChange({ ...ok, password: 'NEWPASS34' })?.key).toBe('shell.validation.passwordLower');
    expect(checkPasswordChange({ ...ok, password: 'Newpassxx' })?.key).toBe('shell.validation.passwordDigit');
    expect(checkPasswordChange({ ...ok, password: 'New pass34' })?.key).toBe('shell.validation.passwordSpaces');
    expect(checkPasswordChange({ ...ok, password_confirmation: '' })).toEqual({
      fields: ['password_confirmation'],
      key: 'shell.validation.confirmPassword',
    });
    expect(checkPasswordChange({ ...ok, password_confirmation: 'Newpass35' })).toEqual({
      fields: ['password', 'password_confirmation'],
      key: 'shell.validation.passwordsMismatch',
    });
    expect(checkPasswordChange(ok)).toBeNull();
  });
});
