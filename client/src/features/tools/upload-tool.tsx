import { useEffect, useState, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import { ImagePlus } from 'lucide-react';
import type { BatchTool } from '@imagestudio/contracts';
import { Button, EmptyState } from '../../components';
import { TOOLS } from '../../config/tools';
import { RESTORE_PARAM, keepForCheckout, takeCheckoutSelection } from '../../lib/checkout-return';
import type { Translate } from '../../lib/i18n';
import { useStore } from '../../stores';
import type { BatchRunStore } from './stores/batch-run-store';
import type { ToolRunStore } from './stores/tool-run-store';
import { BatchCanvas, batchTotal } from './batch-view';
import { JobStatus, runAnnouncement } from './job-status';
import { NewRunButton } from './new-run-button';
import { noPreviewImage } from './no-preview';
import { RunPanel } from './run-panel';
import { ToolLayout } from './tool-layout';
import { mayNotPreview } from './upload-checks';
import { UploadZone } from './upload-zone';
import { useToolPage } from './use-tool-page';
import { batchBlocker, batchCount, batchReady, goodImages, useUpload, type UploadState } from './use-upload';

/**
 * What the upload tools (the tools a batch can run: remove background, upscale) share: the tool page, its chosen image (taking an image
 * handed over by another tool once, on arrival), a new run when a new image follows a finished job, and the
 * image to show before a result (the chosen file, else the open job's input).
 */
export function useUploadTool(tool: BatchTool, upscaleFactor?: number) {
  const { tools, t } = useStore();
  const { run, startOver: startOverSingle } = useToolPage(tool);
  const upload = useUpload(upscaleFactor);
  const batch = tools.batches[tool];
  const [params, setParams] = useSearchParams();
  const batchId = params.get('batch');

  // A batch named by the URL (from history, or this page after a reload) is shown and followed.
  useEffect(() => {
    if (!batchId) return;
    // A finished single result makes way for the batch.
    if (run.state && !run.busy) run.reset();
    void batch.open(batchId);
  }, [batchId, batch]);
  const shownBatch = batch.view?.id;
  const jobId = params.get('job');
  useEffect(() => {
    if (shownBatch && shownBatch !== batchId && !jobId) setParams({ batch: shownBatch }, { replace: true });
  }, [shownBatch, batchId, jobId, setParams]);

  // A new choice after a finished batch leaves it (as a new image does after a single job), and a batch
  // chosen after a single job's result replaces that result.
  useEffect(() => {
    if (upload.chosen === 0) return;
    if (batch.view && !batch.busy) {
      batch.reset();
      setParams({}, { replace: true });
    }
    if (upload.batch && run.state && !run.busy) startOverSingle();
  }, [upload.chosen]);

  /** Back to an empty tool: no job, no batch, nothing chosen for a batch. */
  const startOver = () => {
    batch.reset();
    upload.clearBatch();
    startOverSingle();
  };

  useEffect(() => {
    const handed = tools.takeHandoff(tool);
    if (handed) upload.choose(handed);
    // Only on arrival: a handed-over image is taken once.
  }, [tools]);

  // Back from buying tokens (the success page's way back): the files and options chosen before the purchase,
  // once. The page applies `restored` to its options (what UploadToolLayout kept: `keep`, else the text fields).
  const restoring = params.get(RESTORE_PARAM) !== null;
  const [restored, setRestored] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    if (!restoring) return;
    // Not cancelled when the parameter leaves the URL below: the files are taken (and removed) once either way.
    void takeCheckoutSelection(tool).then(({ files, options }) => {
      if (files.length > 0) upload.chooseMany(files);
      if (options) setRestored(options);
    });
    setParams(
      (p) => {
        p.delete(RESTORE_PARAM);
        return p;
      },
      { replace: true },
    );
  }, [restoring]);

  // A new image after a finished job starts a new run (the old result leaves the canvas).
  useEffect(() => {
    if (upload.file && run.state && !run.busy) startOverSingle();
  }, [upload.file]);

  const preview = beforeImage(upload, run.job, t);
  return { run, batch, startOver, upload, preview, restored };
}

/**
 * The image shown before a result, in the input preview and the before side of every comparison: the chosen
 * file, else the server's WebP preview of the open job's input (made at upload for a HEIC, AVIF or TIFF and for a
 * large photo), else the job's input; a placeholder for one this browser cannot show (a HEIC or TIFF outside
 * Safari) when there is no preview.
 */
function beforeImage(upload: UploadState, job: ToolRunStore['job'], t: Translate): string | null {
  if (upload.previewUrl) return upload.previewUrl;
  // A chosen file this browser cannot show has no object URL: once its job is accepted, the server's preview shows.
  if (job?.input_preview_url) return job.input_preview_url;
  const text = t('client-tools.upload.noPreview');
  if (upload.file && upload.facts?.noPreview) return noPreviewImage(text, upload.facts.width, upload.facts.height);
  const url = job?.input_url ?? null;
  if (url && mayNotPreview(url)) return noPreviewImage(text, job?.results[0]?.width, job?.results[0]?.height);
  return url;
}

/**
 * Which request a run would make: the chosen file (name, size, date) and the options. Equal fingerprints
 * mean the very same job again.
 */
export function uploadFingerprint(file: File | null, options: Record<string, unknown>): string | null {
  return file ? JSON.stringify({ file: [file.name, file.size, file.lastModified], options }) : null;
}

/**
 * Whether the single run would run the shown job again from its stored input: no file chosen, and a finished job
 * on screen whose input is still kept (opened by URL, from projects, or after a reload).
 */
export function runsFromStoredInput(upload: UploadState, run: ToolRunStore): boolean {
  const job = run.job;
  return !upload.file && !upload.checking && job !== null && job.input_url !== null && !run.busy;
}

/** The option fields that are text (a rerun keeps the job's stored files; a new file needs a new upload). */
function textFields(fields: Record<string, string | Blob>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** A batch's status line for screen readers: "Cancelling...", then how it ended ("All done · 3 of 3 done"). */
function batchAnnouncement(t: Translate, batch: BatchRunStore): string {
  const view = batch.view;
  if (batch.cancelling) return t('client-tools.job.cancelling');
  if (!view || !batch.finished) return '';
  const done = t('client-tools.batch.done', { done: view.counts.succeeded, total: view.items.length });
  return `${t(`client-tools.batch.status.${view.status}`)} · ${done}`;
}

/** The RunPanel's blocker and disabled state for an upload tool: no image yet, still checking, or rejected. */
function uploadRunGate(upload: UploadState, t: Translate): { blocker: string | null; disabled: boolean } {
  return {
    blocker: !upload.file && !upload.checking ? t('client-tools.run.chooseImage') : null,
    disabled: !upload.file || upload.checking || upload.problem !== null,
  };
}

/** An upload tool's canvas before its result: the job's status over the input image, or an empty state. */
export const InputPreview = observer(function InputPreview({
  run,
  preview,
  emptyText,
}: {
  run: ToolRunStore;
  preview: string | null;
  emptyText: string;
}) {
  const { t } = useStore();
  return (
    <>
      <JobStatus run={run} />
      {preview ? (
        <div className="result-single__frame">
          {/* The checkerboard sits on the image itself, so an opaque photo shows none around it. */}
          <img
            className="checkerboard"
            src={preview}
            alt={t('client-tools.removeBg.inputAlt')}
            data-testid="input-preview"
          />
        </div>
      ) : (
        <EmptyState icon={<ImagePlus aria-hidden="true" />} text={emptyText} />
      )}
    </>
  );
});

interface UploadToolLayoutProps {
  tool: BatchTool;
  title: string;
  lead: string;
  canvas: ReactNode;
  run: ToolRunStore;
  batch: BatchRunStore;
  upload: UploadState;
  /**
   * The tool's option fields as the API takes them, for a batch (a single run builds its own form); a Blob is a
   * file part (a background image).
   */
  fields: Record<string, string | Blob>;
  startOver(): void;
  runLabel: string;
  cost: number | undefined;
  /** uploadFingerprint() of what a run would send now. */
  fingerprint: string | null;
  onRun(): void;
  /** The tool's own option fields. */
  children: ReactNode;
  /**
   * The page's option values to keep while the customer buys tokens (useUploadTool's `restored` hands them
   * back); the text `fields` when absent. Values IndexedDB can store: plain data and Files.
   */
  keep?: Record<string, unknown>;
}

/**
 * An upload tool's page: the canvas beside the upload zone, the tool's options, the run panel and "New run".
 * Several images or a ZIP turn it into the batch flow: the canvas shows the choice with its total price, then
 * the batch's items live, and the run panel sends the batch.
 */
export const UploadToolLayout = observer(function UploadToolLayout({
  tool,
  title,
  lead,
  canvas,
  run,
  batch,
  upload,
  fields,
  startOver,
  runLabel,
  cost,
  fingerprint,
  onRun,
  children,
  keep,
}: UploadToolLayoutProps) {
  const { t } = useStore();
  const batchMode = upload.batch !== null || batch.phase !== 'idle';
  const busy = run.busy || batch.busy;
  const count = upload.batch ? batchCount(upload.batch) : null;
  const total = cost !== undefined && count !== null ? batchTotal(cost, count) : undefined;
  // A batch that cannot run says why under the run button (nothing greys out without a reason).
  // (A limit of the whole choice is said by the upload zone already: not twice.)
  const blocking = upload.batch ? batchBlocker(upload.batch) : null;
  const blockerText = blocking && blocking !== upload.batch?.problem ? t(blocking.key, blocking.vars) : null;
  // No file chosen and a job on screen whose input is kept: "Run again" runs it from that input.
  const fromStored = !batchMode && runsFromStoredInput(upload, run);
  const rerunFields = textFields(fields);
  const storedFingerprint = fromStored ? JSON.stringify({ input: run.job?.input_name, options: rerunFields }) : null;
  // Out of tokens: the chosen files wait in the browser while the customer pays, for the way back.
  const keepSelection = () => {
    const choice = upload.batch;
    const files = choice
      ? choice.archive
        ? [choice.archive.file]
        : choice.images.map((i) => i.file)
      : upload.file
        ? [upload.file]
        : [];
    if (files.length > 0) void keepForCheckout(tool, TOOLS[tool].path, files, keep ?? rerunFields);
  };
  const runBatch = () => {
    const choice = upload.batch;
    if (!choice) return;
    // Images the browser refused are left out (the choice lists them with why); the good ones run.
    const input = choice.archive ? { archive: choice.archive.file } : { images: goodImages(choice).map((i) => i.file) };
    void batch.submit(input, fields, total ?? 0);
  };
  return (
    <ToolLayout
      title={title}
      lead={lead}
      canvas={
        batchMode ? (
          <BatchCanvas
            batch={batch}
            choice={batch.view ? null : upload.batch}
            unitCost={cost}
            onRemove={upload.removeFromBatch}
          />
        ) : (
          canvas
        )
      }
      activity={batchMode ? batch.phase : run.activity}
      announcement={batchMode ? batchAnnouncement(t, batch) : runAnnouncement(t, run)}
      controls={
        <>
          <UploadZone upload={upload} disabled={busy} />
          <fieldset className="tool-form" disabled={busy}>
            <legend className="tool-form__legend">{t('client-tools.common.options')}</legend>
            {children}
          </fieldset>
          {batchMode ? (
            batch.view ? null : (
              <RunPanel
                tool={tool}
                runner={batch}
                label={count === null ? t('client-tools.batch.runZip') : t('client-tools.batch.run', { n: count })}
                cost={total}
                blocker={blockerText}
                disabled={!upload.batch || !batchReady(upload.batch)}
                onRun={runBatch}
                onBuy={keepSelection}
              />
            )
          ) : (
            <RunPanel
              tool={tool}
              label={runLabel}
              cost={cost}
              {...(fromStored ? { blocker: null, disabled: false } : uploadRunGate(upload, t))}
              fingerprint={fromStored ? storedFingerprint : fingerprint}
              onRun={fromStored ? () => void run.rerun(rerunFields, cost ?? 0, storedFingerprint) : onRun}
              onBuy={keepSelection}
            />
          )}
          {batchMode ? (
            batch.finished ? (
              <Button variant="ghost" block onClick={startOver}>
                {t('client-tools.common.newRun')}
              </Button>
            ) : null
          ) : (
            <NewRunButton run={run} onClick={startOver} />
          )}
        </>
      }
    />
  );
});
