import {
  changePasswordSchema,
  loginSchema,
  profileUpdateSchema,
  registerSchema,
  resetRequestSchema,
  restorePasswordSchema,
} from '../auth';
import { profileViewSchema } from '../api-schemas';
import { emailChangeSchema } from '../email-change';
import { defineRoutes } from './route';

/** Signing up and in, the profile, the password and the email address (browser calls). */
export const accountRoutes = defineRoutes('account', {
  isAuth: {
    tag: 'Account',
    summary: 'Whether a session is signed in; sets the XSRF-TOKEN cookie',
    auth: 'public',
    reply: { kind: 'json' },
  },
  register: {
    tag: 'Account',
    summary: 'Create an account',
    auth: 'public',
    body: registerSchema,
    reply: { kind: 'json', status: 201 },
  },
  login: {
    tag: 'Account',
    summary: 'Sign in (session cookie)',
    auth: 'public',
    body: loginSchema,
    reply: { kind: 'json' },
  },
  // Public: signing out a session that is not signed in is a harmless 200 (an API key is still refused).
  logout: {
    tag: 'Account',
    summary: 'Sign out',
    auth: 'public',
    reply: { kind: 'json' },
  },
  profile: {
    tag: 'Account',
    summary: "The caller's profile and balance",
    auth: 'key',
    reply: { kind: 'json', payload: profileViewSchema },
  },
  updateProfile: {
    tag: 'Account',
    summary: 'Change the profile',
    auth: 'session',
    body: profileUpdateSchema,
    reply: { kind: 'json', payload: profileViewSchema },
  },
  changePassword: {
    tag: 'Account',
    summary: 'Change the password',
    auth: 'session',
    body: changePasswordSchema,
    reply: { kind: 'json' },
  },
  changeEmail: {
    tag: 'Account',
    summary: 'Change the email address (a link to the new address confirms it)',
    auth: 'session',
    body: emailChangeSchema,
    reply: { kind: 'json' },
  },
  confirmEmailChange: {
    tag: 'Account',
    summary: 'Confirm a change of email address (the mailed link)',
    auth: 'public',
    reply: { kind: 'redirect', description: '302 to the profile, email_change=changed|invalid|taken' },
  },
  requestPasswordResetLink: {
    tag: 'Account',
    summary: 'Send a password-reset link',
    auth: 'public',
    query: resetRequestSchema,
    reply: { kind: 'json' },
  },
  requestPasswordReset: {
    tag: 'Account',
    summary: 'Send a password-reset link',
    auth: 'public',
    body: resetRequestSchema,
    reply: { kind: 'json' },
  },
  restorePassword: {
    tag: 'Account',
    summary: "Set a new password with a reset link's token",
    auth: 'public',
    body: restorePasswordSchema,
    reply: { kind: 'json' },
  },
  // The link's parts are checked by the handler: a bad link is a redirect to the "invalid link" page, not a 422.
  verifyEmail: {
    tag: 'Account',
    summary: 'Follow an email-verification link',
    auth: 'public',
    reply: { kind: 'redirect', description: '302 to the result page' },
  },
  resendVerification: {
    tag: 'Account',
    summary: 'Send the verification email again',
    auth: 'session',
    reply: { kind: 'json' },
  },
});
