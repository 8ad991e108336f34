/** What other modules may use of health; everything else in this folder is internal. */
export { healthRouter } from './health.routes';
