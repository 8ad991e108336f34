export { EmailVerificationPage, EmailVerifiedPage, EmailAlreadyVerifiedPage } from './verification-pages';
