/** What other modules may use of email-verification; everything else in this folder is internal. */
export { emailVerificationRouter } from './email-verification.routes';
export { resendVerification, sendVerificationMail } from './email-verification.service';
export type { EmailVerificationDeps } from './email-verification.deps';
