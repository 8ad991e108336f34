import { UnrecoverableError } from 'bullmq';
import { WORKER_USER_MESSAGES } from '@imagestudio/contracts';
import { ImagesApiError } from './images-api';

/** The API's failure kinds as the user reads them (the job's refund is shown beside them). */
const USER_MESSAGES = {
  declined: WORKER_USER_MESSAGES.declined,
  auth: WORKER_USER_MESSAGES.serviceFailed,
  failed: WORKER_USER_MESSAGES.serviceFailed,
  timeout: WORKER_USER_MESSAGES.serviceTimedOut,
} as const;

/**
 * The images API's failure as the job's unrecoverable failure: the user's message, the operator's detail after
 * it. Any other error passes through unchanged. Shared by every tool that calls the API (generation, AI background).
 */
export function imagesApiJobFailure(err: unknown): unknown {
  if (!(err instanceof ImagesApiError)) return err;
  return new UnrecoverableError(`${USER_MESSAGES[err.kind]} (images API: ${err.message})`);
}
