/** What other modules may use of admin; everything else in this folder is internal. */
export { adminRouter } from './admin.routes';
export { queueBoardRouter } from './queue-board';
