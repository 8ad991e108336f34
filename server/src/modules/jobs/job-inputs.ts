import { inputsPrefix } from '@imagestudio/runtime';
import type { CleanImage } from '../uploads';
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

/** Stores each input under its S3 key, a few at a time; on failure removes what was stored. */
export async function storeInputs(
  ctx: JobsDeps,
  userId: string,
  stores: { jobId: string; key: string; input: JobInput }[],
): Promise<void> {
  let next = 0;
  const work = async () => {
    while (next < stores.length) {
      const { key, input } = stores[next++]!;
      const bytes = typeof input.bytes === 'function' ? await input.bytes() : input.bytes;
      await ctx.storage.put(key, bytes, input.contentType);
    }
  };
  try {
    await Promise.all(Array.from({ length: STORE_CONCURRENCY }, work));
  } catch (err) {
    await removeInputs(
      ctx,
      userId,
      stores.map((s) => s.jobId),
    );
    throw err;
  }
}
