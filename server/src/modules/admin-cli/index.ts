/** What other modules may use of admin-cli; everything else in this folder is internal. */
export { setUserDisabled } from './admin.repository';
