/** What other modules may use of email-change; everything else in this folder is internal. */
export { emailChangeRouter } from './email-change.routes';
