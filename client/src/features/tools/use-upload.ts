import { useCallback, useEffect, useRef, useState } from 'react';
import { checkUpload, inspectFile, type UploadFacts, type UploadProblem } from './upload-checks';

export interface UploadState {
  file: File | null;
  facts: UploadFacts | null;
  /** Object URL of the chosen image for previews (revoked when replaced). */
  previewUrl: string | null;
  checking: boolean;
  /** The first failed client check; null when the file may be uploaded. */
  problem: UploadProblem | null;
  /** How many more images came with the chosen one (picked, dropped or pasted together) and were left out. */
  leftOut: number;
  choose(file: File): void;
  /** Several images at once: the first is used (batches are not offered yet) and `leftOut` says how many were not. */
  chooseFirst(files: File[]): void;
}

/** The chosen image of an upload tool, checked in the browser; `upscaleFactor` adds the output limit. */
export function useUpload(upscaleFactor?: number): UploadState {
  const [file, setFile] = useState<File | null>(null);
  const [facts, setFacts] = useState<UploadFacts | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [leftOut, setLeftOut] = useState(0);
  const latest = useRef<File | null>(null);

  useEffect(() => () => {
    if (previewUrl) URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);

  const read = useCallback((next: File) => {
    latest.current = next;
    setChecking(true);
    void inspectFile(next).then((result) => {
      // A newer choice made while this one was being read wins.
      if (latest.current !== next) return;
      setFile(next);
      setFacts(result);
      setPreviewUrl(result.width ? URL.createObjectURL(next) : null);
      setChecking(false);
    });
  }, []);

  const choose = useCallback(
    (next: File) => {
      setLeftOut(0);
      read(next);
    },
    [read],
  );

  const chooseFirst = useCallback(
    (files: File[]) => {
      const first = files[0];
      if (!first) return;
      setLeftOut(files.length - 1);
      read(first);
    },
    [read],
  );

  const problem = facts ? checkUpload(facts, upscaleFactor) : null;
  return { file, facts, previewUrl, checking, problem, leftOut, choose, chooseFirst };
}
