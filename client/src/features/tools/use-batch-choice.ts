import { useCallback, useEffect, useState, type RefObject } from 'react';
import { BATCH_LIMITS } from '@imagestudio/contracts';
import { isZipFile, zipImageNames } from './zip-images';
import { checkUpload, inspectFile, type UploadFacts, type UploadProblem } from './upload-checks';

/** One image of a batch, checked in the browser like a single upload. */
export interface BatchImage {
  file: File;
  /** Object URL for its thumbnail; null when the browser cannot show it. */
  url: string | null;
  problem: UploadProblem | null;
}

/** Several images (or one ZIP) chosen together: the batch flow. */
export interface BatchChoice {
  /** The checked images (empty while `checking`). */
  images: BatchImage[];
  /** How many images were chosen, known before their checks end (so the price never reads "0 images"). */
  chosenImages: number;
  /** A ZIP instead of images, with the image names its directory lists (null when it could not be read). */
  archive: { file: File; imageNames: string[] | null } | null;
  checking: boolean;
  /** A problem with the choice as a whole (too many images, too large). */
  problem: UploadProblem | null;
}

const MB = 1024 * 1024;

/** The batch-wide limits, checked before anything is sent. */
function batchProblem(images: File[], archive: File | null): UploadProblem | null {
  const count = images.length;
  if (count > BATCH_LIMITS.maxItems)
    return { key: 'client-tools.batch.errors.tooMany', vars: { n: count, max: BATCH_LIMITS.maxItems } };
  const bytes = archive ? archive.size : images.reduce((sum, f) => sum + f.size, 0);
  if (bytes > BATCH_LIMITS.maxTotalBytes)
    return { key: 'client-tools.batch.errors.tooLarge', vars: { max: BATCH_LIMITS.maxTotalBytes / MB } };
  return null;
}

/** The batch as read, before the checks that depend on the page's options (the upscale factor). */
interface ReadBatch {
  images: { file: File; url: string | null; facts: UploadFacts }[];
  chosenImages: number;
  archive: BatchChoice['archive'];
  checking: boolean;
}

/**
 * The batch half of an upload: reads several images (or one ZIP) and checks each in the browser. `latest` is
 * the upload's newest choice, shared with its single image, so a choice made while an older one is still being
 * read wins whichever kind either is.
 */
export function useBatchChoice(latest: RefObject<unknown>, upscaleFactor?: number) {
  const [batch, setBatch] = useState<ReadBatch | null>(null);

  useEffect(
    () => () => {
      batch?.images.forEach((i) => i.url && URL.revokeObjectURL(i.url));
    },
    [batch?.images],
  );

  const read = useCallback(
    (files: File[]) => {
      const token = {};
      latest.current = token;
      const zip = files.length === 1 && isZipFile(files[0]!) ? files[0]! : null;
      if (zip) {
        setBatch({ images: [], chosenImages: 0, archive: { file: zip, imageNames: null }, checking: true });
        void zipImageNames(zip).then((imageNames) => {
          if (latest.current === token)
            setBatch({ images: [], chosenImages: 0, archive: { file: zip, imageNames }, checking: false });
        });
        return;
      }
      // Archives mixed in with images are left out: a batch is either images or one ZIP.
      const images = files.filter((f) => !isZipFile(f));
      setBatch({ images: [], chosenImages: images.length, archive: null, checking: true });
      void Promise.all(
        images.map(async (f) => {
          const result = await inspectFile(f);
          return { file: f, facts: result, url: result.width && !result.noPreview ? URL.createObjectURL(f) : null };
        }),
      ).then((checked) => {
        if (latest.current === token)
          setBatch({ images: checked, chosenImages: checked.length, archive: null, checking: false });
        else checked.forEach((c) => c.url && URL.revokeObjectURL(c.url));
      });
    },
    [latest],
  );

  const remove = useCallback((index: number) => {
    setBatch((current) => {
      if (!current || current.checking) return current;
      const gone = current.images[index];
      if (gone?.url) URL.revokeObjectURL(gone.url);
      const images = current.images.filter((_, i) => i !== index);
      return { ...current, images, chosenImages: images.length };
    });
  }, []);

  const drop = useCallback(() => setBatch(null), []);

  const choice: BatchChoice | null = batch
    ? {
        images: batch.images.map((i) => ({ file: i.file, url: i.url, problem: checkUpload(i.facts, upscaleFactor) })),
        chosenImages: batch.chosenImages,
        archive: batch.archive,
        checking: batch.checking,
        problem: batchProblem(
          batch.images.map((i) => i.file),
          batch.archive?.file ?? null,
        ),
      }
    : null;
  return { choice, read, remove, drop };
}

/**
 * How many images a batch choice will run (and be charged for): the images the browser's checks passed (all
 * chosen ones while they are still being checked), those a ZIP's directory lists, or null when unknown.
 */
export function batchCount(batch: BatchChoice): number | null {
  if (batch.archive) return batch.archive.imageNames?.length ?? null;
  if (batch.checking) return batch.chosenImages;
  return goodImages(batch).length;
}

/** The chosen images the browser's checks passed: the run sends these and leaves the others out. */
export function goodImages(batch: BatchChoice): BatchImage[] {
  return batch.images.filter((i) => i.problem === null);
}

/** True when the chosen batch can be sent: checked, with at least one good image, no limit refused. */
export function batchReady(batch: BatchChoice): boolean {
  return batchBlocker(batch) === null;
}

/**
 * Why the chosen batch cannot run, as a message key: still checking, a limit of the whole choice, a ZIP
 * without images, or no image that passed its checks. Null when it can run.
 */
export function batchBlocker(batch: BatchChoice): UploadProblem | null {
  if (batch.checking) return { key: 'client-tools.batch.blocker.checking' };
  if (batch.problem) return batch.problem;
  if (batch.archive) {
    return batch.archive.imageNames?.length === 0 ? { key: 'client-tools.batch.blocker.emptyZip' } : null;
  }
  return goodImages(batch).length === 0 ? { key: 'client-tools.batch.blocker.noGoodImage' } : null;
}
