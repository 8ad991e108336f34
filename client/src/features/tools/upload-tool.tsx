import { useEffect, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { ImageOff } from 'lucide-react';
import { EmptyState } from '../../components';
import type { Translate } from '../../lib/i18n';
import { useStore } from '../../stores';
import type { ToolRunStore } from '../../stores/tool-run-store';
import { JobStatus } from './job-status';
import { NewRunButton } from './new-run-button';
import { RunPanel } from './run-panel';
import { ToolLayout } from './tool-layout';
import { UploadZone } from './upload-zone';
import { useToolPage } from './use-tool-page';
import { useUpload, type UploadState } from './use-upload';

/**
 * What the upload tools (remove background, upscale) share: the tool page, its chosen image (taking an image
 * handed over by another tool once, on arrival), a new run when a new image follows a finished job, and the
 * image to show before a result (the chosen file, else the open job's input).
 */
export function useUploadTool(tool: 'remove-background' | 'upscale', upscaleFactor?: number) {
  const { tools } = useStore();
  const { run, startOver } = useToolPage(tool);
  const upload = useUpload(upscaleFactor);

  useEffect(() => {
    const handed = tools.takeHandoff(tool);
    if (handed) upload.choose(handed);
    // Only on arrival: a handed-over image is taken once.
  }, [tools]);

  // A new image after a finished job starts a new run (the old result leaves the canvas).
  useEffect(() => {
    if (upload.file && run.state && !run.busy) startOver();
  }, [upload.file]);

  const preview = upload.previewUrl ?? run.job?.input_url ?? null;
  return { run, startOver, upload, preview };
}

/**
 * Which request a run would make: the chosen file (name, size, date) and the options. Equal fingerprints
 * mean the very same job again.
 */
export function uploadFingerprint(file: File | null, options: Record<string, unknown>): string | null {
  return file ? JSON.stringify({ file: [file.name, file.size, file.lastModified], options }) : null;
}

/** The RunPanel's blocker and disabled state for an upload tool: no image yet, still checking, or rejected. */
function uploadRunGate(upload: UploadState, t: Translate): { blocker: string | null; disabled: boolean } {
  return {
    blocker: !upload.file && !upload.checking ? t('client-tools.run.chooseImage') : null,
    disabled: !upload.file || upload.checking || upload.problem !== null,
  };
}

/** An upload tool's canvas before its result: the job's status over the input image, or an empty state. */
export const InputPreview = observer(function InputPreview({ run, preview, emptyText }: { run: ToolRunStore; preview: string | null; emptyText: string }) {
  const { t } = useStore();
  return (
    <>
      <JobStatus run={run} />
      {preview ? (
        <div className="result-single__frame">
          {/* The checkerboard sits on the image itself, so an opaque photo shows none around it. */}
          <img className="checkerboard" src={preview} alt={t('client-tools.removeBg.inputAlt')} data-testid="input-preview" />
        </div>
      ) : (
        <EmptyState icon={<ImageOff aria-hidden="true" />} text={emptyText} />
      )}
    </>
  );
});

interface UploadToolLayoutProps {
  tool: 'remove-background' | 'upscale';
  title: string;
  lead: string;
  canvas: ReactNode;
  run: ToolRunStore;
  upload: UploadState;
  startOver(): void;
  runLabel: string;
  cost: number | undefined;
  /** uploadFingerprint() of what a run would send now. */
  fingerprint: string | null;
  onRun(): void;
  /** The tool's own option fields. */
  children: ReactNode;
}

/** An upload tool's page: the canvas beside the upload zone, the tool's options, the run panel and "New run". */
export const UploadToolLayout = observer(function UploadToolLayout({ tool, title, lead, canvas, run, upload, startOver, runLabel, cost, fingerprint, onRun, children }: UploadToolLayoutProps) {
  const { t } = useStore();
  return (
    <ToolLayout
      title={title}
      lead={lead}
      canvas={canvas}
      activity={run.activity}
      controls={
        <>
          <UploadZone upload={upload} disabled={run.busy} />
          <fieldset className="tool-form" disabled={run.busy}>
            <legend className="tool-form__legend">{t('client-tools.common.options')}</legend>
            {children}
          </fieldset>
          <RunPanel tool={tool} label={runLabel} cost={cost} {...uploadRunGate(upload, t)} fingerprint={fingerprint} onRun={onRun} />
          <NewRunButton run={run} onClick={startOver} />
        </>
      }
    />
  );
});
