/** What other modules may use of mail; everything else in this folder is internal. */
export { createMailer, escapeHtml, type Mailer, type MailMessage } from './mailer';
