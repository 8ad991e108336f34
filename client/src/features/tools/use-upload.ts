import { useCallback, useEffect, useRef, useState } from 'react';
import { isZipFile } from './zip-images';
import { checkUpload, inspectFile, type UploadFacts, type UploadProblem } from './upload-checks';
import { useBatchChoice, type BatchChoice } from './use-batch-choice';

export { batchBlocker, batchCount, batchReady, goodImages, type BatchChoice } from './use-batch-choice';

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

/** The chosen image of an upload tool (or several, for a batch), checked in the browser; `upscaleFactor` adds the output limit. */
export function useUpload(upscaleFactor?: number): UploadState {
  const [file, setFile] = useState<File | null>(null);
  const [facts, setFacts] = useState<UploadFacts | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const latest = useRef<unknown>(null);
  const [chosen, setChosen] = useState(0);
  const {
    choice: batch,
    read: readBatchFiles,
    remove: removeFromBatch,
    drop: dropBatch,
  } = useBatchChoice(latest, upscaleFactor);

  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const read = useCallback(
    (next: File) => {
      latest.current = next;
      setChosen((n) => n + 1);
      dropBatch();
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
    },
    [dropBatch],
  );

  const readBatch = useCallback(
    (files: File[]) => {
      setChosen((n) => n + 1);
      setFile(null);
      setFacts(null);
      setPreviewUrl(null);
      setChecking(false);
      readBatchFiles(files);
    },
    [readBatchFiles],
  );

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
    dropBatch();
  }, [dropBatch]);

  const problem = facts ? checkUpload(facts, upscaleFactor) : null;
  return {
    file,
    facts,
    previewUrl,
    checking,
    problem,
    batch,
    chosen,
    choose,
    chooseMany,
    clearBatch,
    removeFromBatch,
  };
}
