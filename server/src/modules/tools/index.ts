/** What other modules may use of tools; everything else in this folder is internal. */
export { submitLimit } from './submit-limit';
export { toolsRouter } from './tools.routes';
export type { SubmitMeta } from './tools.service';
