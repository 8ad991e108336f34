import { useCallback, useEffect, useRef, useState } from 'react';
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

export interface UploadState {
  file: File | null;
  facts: UploadFacts | null;
  /** Object URL of the chosen image for previews (revoked when replaced). */
  previewUrl: string | null;
  checking: boolean;
  /** The first failed client check; null when the file may be uploaded. */
  problem: UploadProblem | null;
  /** Set instead of `file` when several images or a ZIP were picked, dropped or pasted together. */
  batch: BatchChoice | null;
  /** Counts the choices made (0 before the first), so a page can react to each new one. */
  chosen: number;
  choose(file: File): void;
  /** Files picked, dropped or pasted together: one image is a single run, several images or a ZIP a batch. */
  chooseMany(files: File[]): void;
  /** Forgets the chosen batch (a new run). */
  clearBatch(): void;
  /** Takes one image (by its place in `batch.images`) out of the chosen batch. */
  removeFromBatch(index: number): void;
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

/** The chosen image of an upload tool (or several, for a batch), checked in the browser; `upscaleFactor` adds the output limit. */
export function useUpload(upscaleFactor?: number): UploadState {
  const [file, setFile] = useState<File | null>(null);
  const [facts, setFacts] = useState<UploadFacts | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [batch, setBatch] = useState<{
    images: { file: File; url: string | null; facts: UploadFacts }[];
    chosenImages: number;
    archive: BatchChoice['archive'];
    checking: boolean;
  } | null>(null);
  const latest = useRef<unknown>(null);
  const [chosen, setChosen] = useState(0);

  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  useEffect(
    () => () => {
      batch?.images.forEach((i) => i.url && URL.revokeObjectURL(i.url));
    },
    [batch?.images],
  );

  const read = useCallback((next: File) => {
    latest.current = next;
    setChosen((n) => n + 1);
    setBatch(null);
    setChecking(true);
    void inspectFile(next).then((result) => {
      // A newer choice made while this one was being read wins.
      if (latest.current !== next) return;
      setFile(next);
      setFacts(result);
      // A HEIC or TIFF this browser cannot show gets no object URL: the tool shows a placeholder (no-preview.ts).
      setPreviewUrl(result.width && !result.noPreview ? URL.createObjectURL(next) : null);
      setChecking(false);
    });
  }, []);

  const readBatch = useCallback((files: File[]) => {
    const token = {};
    latest.current = token;
    setChosen((n) => n + 1);
    setFile(null);
    setFacts(null);
    setPreviewUrl(null);
    setChecking(false);
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
  }, []);

  const choose = useCallback((next: File) => read(next), [read]);

  const chooseMany = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      if (files.length === 1 && !isZipFile(files[0]!)) read(files[0]!);
      else readBatch(files);
    },
    [read, readBatch],
  );

  const clearBatch = useCallback(() => {
    latest.current = null;
    setBatch(null);
  }, []);

  const removeFromBatch = useCallback((index: number) => {
    setBatch((current) => {
      if (!current || current.checking) return current;
      const gone = current.images[index];
      if (gone?.url) URL.revokeObjectURL(gone.url);
      const images = current.images.filter((_, i) => i !== index);
      return { ...current, images, chosenImages: images.length };
    });
  }, []);

  const problem = facts ? checkUpload(facts, upscaleFactor) : null;
  const batchChoice: BatchChoice | null = batch
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
  return {
    file,
    facts,
    previewUrl,
    checking,
    problem,
    batch: batchChoice,
    chosen,
    choose,
    chooseMany,
    clearBatch,
    removeFromBatch,
  };
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
