export { ResendVerification } from './resend-verification';
export { EmailVerificationPage, EmailVerifiedPage, EmailAlreadyVerifiedPage } from './verification-pages';
