/** What other modules may use of workers; everything else in this folder is internal. */
export {
  assertToolAvailable,
  assertUpscaleModelAvailable,
  createHeartbeatCache,
  type HeartbeatCache,
  readHeartbeats,
  toolStatus,
} from './tool-availability';
export type { WorkersDeps } from './workers.deps';
