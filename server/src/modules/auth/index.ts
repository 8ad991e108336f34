/** What other modules may use of auth; everything else in this folder is internal. */
export { readAccountSettings } from './account-settings';
export { requireVerifiedEmail } from './auth-guards';
export { type AppPassport, createPassport } from './auth.passport';
export { authRouter } from './auth.routes';
export { welcomeGrantKey } from './auth.service';
export { createPasswordHasher, type PasswordHasher } from './password-hash';
