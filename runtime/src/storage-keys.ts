/**
 * The S3 key layout shared by the API (which uploads inputs and deletes expired objects) and the worker (which
 * writes results): every object of a job lives under a prefix named by its owner and the job's id, so one
 * prefix delete removes a job's files and a re-run of the same job overwrites its own results.
 */

export interface JobOwner {
  userId: string;
  jobId: string;
}

/** Folder of a job's uploaded input. */
export function inputsPrefix(job: JobOwner): string {
  return `inputs/${job.userId}/${job.jobId}/`;
}

/** Folder of a job's results. */
export function resultsPrefix(job: JobOwner): string {
  return `results/${job.userId}/${job.jobId}/`;
}

/** Key of a job's uploaded input, by its file extension. */
export function inputKey(job: JobOwner, ext: string): string {
  return `${inputsPrefix(job)}input.${ext}`;
}

/** Key of the job's result number `index`. */
export function resultKey(job: JobOwner, index: number, ext: string): string {
  return `${resultsPrefix(job)}${index}.${ext}`;
}
