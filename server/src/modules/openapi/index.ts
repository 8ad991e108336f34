/** What other modules may use of openapi; everything else in this folder is internal. */
export { openApiRouter } from './openapi.routes';
