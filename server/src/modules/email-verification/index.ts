/** What other modules may use of email-verification; everything else in this folder is internal. */
export { emailVerificationRouter } from './email-verification.routes';
export { resendVerification } from './email-verification.service';
export { verificationMail } from './verification.mail';
