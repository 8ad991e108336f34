import type { BatchStatus, JobStatus } from '@imagestudio/contracts';
import type { BadgeTone } from '../components';

/** The badge tone of each job status, wherever a job's status is shown. */
export const JOB_TONES: Record<JobStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'accent',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** The badge tone of each batch status (a partly finished batch warns). */
export const BATCH_TONES: Record<BatchStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'accent',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  cancelled: 'warning',
};
