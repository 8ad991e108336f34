/** What other modules may use of the remove.bg-compatible API; everything else in this folder is internal. */
export { removeBgRouter } from './removebg.routes';
