/** What other modules may use of batches; everything else in this folder is internal. */
export { batchesRouter } from './batches.routes';
