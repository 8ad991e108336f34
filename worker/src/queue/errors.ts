/** The API set the job's cancel flag; the processor turns this into a non-retried failure. */
export class JobCancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}
