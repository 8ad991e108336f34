/** What other modules may use of jobs; everything else in this folder is internal. */
export { admitJobs, cleanInput, type JobInput } from './admit-jobs';
export { failJob, refundSucceededJob } from './finalize.service';
export { storedJobInput } from './job-inputs';
export { raiseCancelFlag } from './cancel-flag';
export { checkIdempotencyKey, isUniqueViolation, oncePerKey, requestFingerprint } from './idempotency';
export { createRecentRunsCache, type RecentRunsCache } from './job-estimate';
export { jobEventsTask } from './job-events';
export { createJobMetrics, type JobMetrics } from './job-metrics';
export {
  cutoutConfidenceOf,
  filesAreGone,
  presentInput,
  presentJob,
  presentResults,
  queuePosition,
} from './job-presenter';
export { createJobUpdates } from './job-updates';
export * as jobsRepository from './jobs.repository';
export { type JobRow, lockJob } from './jobs.repository';
export { jobsRouter } from './jobs.routes';
export { cancelJob, cancelOpenJob, ownedJob } from './jobs.service';
export { reconcilerTask } from './reconciler';
export { retentionTask } from './retention';
export { submitJob, type SubmitOutcome } from './submit.service';
export { waitForFinalJob } from './wait-for-job';
export type { JobsDeps } from './jobs.deps';
