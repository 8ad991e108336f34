import { inputFileKey, inputsPrefix } from '@imagestudio/runtime';
import { needsInputPreview, type CleanImage } from '../uploads';
import type { JobsDeps } from './jobs.deps';

/** The image a job reads, stored under its own inputs prefix before the job is charged. */
export interface JobInput {
  /** The bytes, or how to read them (a retry copies the item's stored input). */
  bytes: Buffer | (() => Promise<Buffer>);
  extension: string;
  contentType: string;
  /** The file's name on the user's computer, kept to name the result's download. */
  name: string | null;
  width: number | null;
  height: number | null;
  /** Further file parts of the request by form field (a background image), stored beside the input. */
  files?: Record<string, JobInputFile>;
}

/** A further file of a job's request, stored as it is at inputFileKey. */
export interface JobInputFile {
  bytes: Buffer | (() => Promise<Buffer>);
  contentType: string;
}

/** The S3 keys of a job's further files, by form field. */
export function inputFileKeys(
  owner: { userId: string; jobId: string },
  input: JobInput | undefined,
): Record<string, string> {
  return Object.fromEntries(Object.keys(input?.files ?? {}).map((field) => [field, inputFileKey(owner, field)]));
}

/** The further files of a stored job (by field) as inputs of another job: a retry copies them with its input. */
function storedInputFiles(
  ctx: Pick<JobsDeps, 'storage'>,
  owner: { userId: string; jobId: string },
  fields: string[],
): Record<string, JobInputFile> {
  return Object.fromEntries(
    fields.map((field) => {
      const key = inputFileKey(owner, field);
      // Its content type is not kept on the row; readers tell the image's format from its bytes.
      return [field, { bytes: () => ctx.storage.get(key), contentType: 'application/octet-stream' }];
    }),
  );
}

/**
 * A stored job's input (and the further files of `fields`) as the input of a new job: a rerun or a batch retry.
 * Read from storage when the new job is admitted, and stored again under the new job, so deleting either job's
 * files never takes the other's input.
 */
export function storedJobInput(
  ctx: Pick<JobsDeps, 'storage'>,
  owner: { userId: string; jobId: string },
  stored: { input_key: string; input_name: string | null; input_width: number | null; input_height: number | null },
  fields: string[],
): JobInput {
  const key = stored.input_key;
  const extension = key.split('.').pop() ?? 'png';
  return {
    bytes: () => ctx.storage.get(key),
    extension,
    contentType: extension === 'jpg' ? 'image/jpeg' : `image/${extension}`,
    name: stored.input_name,
    width: stored.input_width,
    height: stored.input_height,
    files: storedInputFiles(ctx, owner, fields),
  };
}

/** A clean upload as a job's input. */
export function cleanInput(clean: CleanImage, name: string | null): JobInput {
  return {
    bytes: clean.bytes,
    extension: clean.format === 'jpeg' ? 'jpg' : clean.format,
    contentType: clean.contentType,
    name,
    width: clean.width,
    height: clean.height,
  };
}

/** Inputs stored at once (each is an S3 round trip). */
const STORE_CONCURRENCY = 4;

/** Removes the stored inputs of jobs that were not admitted after all. */
export async function removeInputs(ctx: JobsDeps, userId: string, jobIds: string[]): Promise<void> {
  await Promise.all(
    jobIds.map((jobId) => ctx.storage.deletePrefix(inputsPrefix({ userId, jobId })).catch(() => undefined)),
  );
}

/** An admitted job whose stored input gets a browser preview after the reply (see makeInputPreviews). */
export interface PendingPreview {
  jobId: string;
  inputKey: string;
}

/** Whether an input gets a browser preview (HEIC, AVIF, TIFF or large: see input-preview.ts), by its header. */
function wantsPreview(input: JobInput, bytes: Buffer): boolean {
  return needsInputPreview({
    extension: input.extension,
    width: input.width,
    height: input.height,
    bytes: bytes.length,
  });
}

/**
 * Stores each input under its S3 key, a few at a time; on failure removes what was stored. Returns the jobs whose
 * input needs a browser preview, made after admission by makeInputPreviews, so accepting a batch of large photos
 * decodes none of them on the way (the API checks headers only; decoding is the worker's, or comes after the reply).
 */
export async function storeInputs(
  ctx: JobsDeps,
  userId: string,
  stores: { jobId: string; key: string; input: JobInput }[],
): Promise<PendingPreview[]> {
  // The input and each further file are one put each.
  const puts = stores.flatMap(({ jobId, key, input }) => [
    { key, file: input as JobInputFile, previewOf: { jobId, input } },
    ...Object.entries(input.files ?? {}).map(([field, file]) => ({
      key: inputFileKey({ userId, jobId }, field),
      file,
      previewOf: null,
    })),
  ]);
  const previews: PendingPreview[] = [];
  let next = 0;
  const work = async () => {
    while (next < puts.length) {
      const { key, file, previewOf } = puts[next++]!;
      const bytes = typeof file.bytes === 'function' ? await file.bytes() : file.bytes;
      await ctx.storage.put(key, bytes, file.contentType);
      if (previewOf && wantsPreview(previewOf.input, bytes)) previews.push({ jobId: previewOf.jobId, inputKey: key });
    }
  };
  try {
    await Promise.all(Array.from({ length: STORE_CONCURRENCY }, work));
    return previews;
  } catch (err) {
    await removeInputs(
      ctx,
      userId,
      stores.map((s) => s.jobId),
    );
    throw err;
  }
}
