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

/**
 * Key of a further file part of the job's request (background removal's `background_image`), by its form
 * field's name: beside the input, so the job's inputs prefix removes it too. No extension (the object's content
 * type and bytes say what it is), so a copy for a retry needs to know only the field.
 */
export function inputFileKey(job: JobOwner, field: string): string {
  return `${inputsPrefix(job)}${field}`;
}

/**
 * Key of the input's browser preview (a WebP, see server/src/modules/uploads/input-preview.ts): beside the input,
 * so the job's inputs prefix removes it too.
 */
export function inputPreviewKey(job: JobOwner): string {
  return `${inputsPrefix(job)}preview.webp`;
}

/** Folder of the pictures re-composed from a job's stored cut-out (POST /api/jobs/{id}/compose), under its results. */
export function compositionsPrefix(job: JobOwner): string {
  return `${resultsPrefix(job)}compositions/`;
}

/** Keys of the stored cut-out a re-composition renders from, beside the job's results (same retention). */
export function composeSourceKeys(job: JobOwner): { foregroundKey: string; matteKey: string } {
  return {
    foregroundKey: `${resultsPrefix(job)}sources/foreground.png`,
    matteKey: `${resultsPrefix(job)}sources/matte.png`,
  };
}

/** Key of the job's result number `index`. */
export function resultKey(job: JobOwner, index: number, ext: string): string {
  return `${resultsPrefix(job)}${index}.${ext}`;
}

/**
 * Key of the small WebP preview of the job's result number `index`, under its results (same retention and
 * deletion): lists show it instead of downloading a full-size result for a 48 px slot.
 */
export function thumbnailKey(job: JobOwner, index: number): string {
  return `${resultsPrefix(job)}thumbs/${index}.webp`;
}
