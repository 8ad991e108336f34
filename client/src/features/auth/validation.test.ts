import { en } from '../../lib/i18n';
import { validateForgot, validateLogin, validateRegister, validateReset, type RegisterForm } from './validation';

const text = (problem: { key: keyof typeof en } | null) => (problem ? en[problem.key] : null);

describe('sign in: required fields, then the email format', () => {
  it('requires both fields, then a simple email pattern', () => {
    expect(text(validateLogin({ email: '', password: 'x' }))).toBe('Email and password are required');
    expect(text(validateLogin({ email: 'a@b.c', password: '' }))).toBe('Email and password are required');
    expect(text(validateLogin({ email: 'not-an-email', password: 'x' }))).toBe('Invalid email format');
    expect(validateLogin({ email: 'a@b.co', password: 'x' })).toBeNull();
  });
});

describe('sign up: only the first failure, from the name down to the terms', () => {
  const valid: RegisterForm = {
    firstName: 'Ada',
    lastName: 'L',
    email: 'ada@example.test',
    phone: '+49 151 23456789',
    phoneValid: true,
    password: 'Secret1',
    confirmPassword: 'Secret1',
    terms: true,
  };
  const steps: Array<[Partial<RegisterForm>, string, string[]]> = [
    [{ firstName: ' ' }, 'Name is required', ['firstName']],
    [{ lastName: '' }, 'Surname is required', ['lastName']],
    [{ email: '' }, 'Email is required', ['email']],
    [{ email: 'ada@' }, 'Please enter a valid email address', ['email']],
    [{ phone: '' }, 'Phone number is required', ['phone']],
    [{ phoneValid: false }, 'Please enter a valid phone number', ['phone']],
    [{ password: '', confirmPassword: '' }, 'Password is required', ['password']],
    [{ password: 'short', confirmPassword: 'short' }, 'Password must be 6-12 characters long', ['password']],
    [{ confirmPassword: '' }, 'Please confirm your password', ['confirmPassword']],
    [{ confirmPassword: 'Secret2' }, 'Passwords do not match', ['password', 'confirmPassword']],
    [{ terms: false }, 'Please accept the terms and privacy policy', ['terms']],
  ];

  it.each(steps)('%j -> %s', (change, message, fields) => {
    const problem = validateRegister({ ...valid, ...change });
    expect(text(problem)).toBe(message);
    expect(problem?.fields).toEqual(fields);
  });

  it('reports only the first failure when everything is wrong', () => {
    const empty: RegisterForm = {
      firstName: '',
      lastName: '',
      email: '',
      phone: '',
      phoneValid: false,
      password: '',
      confirmPassword: '',
      terms: false,
    };
    expect(text(validateRegister(empty))).toBe('Name is required');
    expect(validateRegister(valid)).toBeNull();
  });
});

describe('forgot and reset password', () => {
  it('forgot: empty gives "Please enter your email address"', () => {
    expect(text(validateForgot(''))).toBe('Please enter your email address');
    expect(validateForgot('a@b.co')).toBeNull();
  });

  it('reset: password rule, confirmation, match', () => {
    expect(text(validateReset({ password: '', confirmPassword: '' }))).toBe('Password is required');
    expect(text(validateReset({ password: 'abcdef1', confirmPassword: '' }))).toBe(
      'Password must contain at least one uppercase letter',
    );
    expect(text(validateReset({ password: 'Secret1', confirmPassword: '' }))).toBe('Please confirm your password');
    expect(text(validateReset({ password: 'Secret1', confirmPassword: 'Secret2' }))).toBe('Passwords do not match');
    expect(validateReset({ password: 'Secret1', confirmPassword: 'Secret1' })).toBeNull();
  });
});
