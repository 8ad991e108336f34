/** What other modules may use of token-activity; everything else in this folder is internal. */
export { tokenActivityRouter } from './token-activity.routes';
export { presentEntry } from './token-activity.service';
