/** What other modules may use of password-reset; everything else in this folder is internal. */
export { passwordResetRouter } from './password-reset.routes';
export { createPasswordChangeNotice, type PasswordChangeNotice } from './password-changed-mail';
