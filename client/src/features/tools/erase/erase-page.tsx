import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { ImagePlus } from 'lucide-react';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { EmptyState } from '../../../components';
import { useStore, useT } from '../../../stores';
import { JobStatus, runAnnouncement } from '../job-status';
import { NewRunButton } from '../new-run-button';
import { DownloadLink } from '../result-image';
import { RunPanel } from '../run-panel';
import { ToolLayout } from '../tool-layout';
import { uploadFingerprint } from '../upload-tool';
import { UploadZone } from '../upload-zone';
import { useToolPage } from '../use-tool-page';
import { useUpload } from '../use-upload';
import { ErasePainter, useEraseSurfaces } from './erase-painter';
import { useEraseStrokes } from './use-erase-strokes';
import './erase.css';
import { OutputFormatSelect, PromptField, type OutputFormat } from '../tool-fields';

/**
 * /services/erase: one photo (a mask belongs to one photo, so no batches), painted over with the editor's brush
 * where something should go (undo, redo, clear), an optional prompt and the output format; Run sends the photo
 * with the painting as its mask, and the result shows over the photo on a before/after slider with its download.
 */
export const ErasePage = observer(function ErasePage() {
  const { tools, t } = useStore();
  const { run, startOver: startOverRun } = useToolPage('erase');
  const upload = useUpload();
  const strokes = useEraseStrokes();
  const surfaces = useEraseSurfaces(upload.previewUrl, strokes);
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState<OutputFormat>('png');
  const quote = tools.quote('erase', 1);

  useEffect(() => {
    void tools.loadQuote('erase', 1);
  }, [tools]);

  // A job opened by URL, from projects or after a reload shows the options it ran with.
  const shown = run.job;
  useEffect(() => {
    const p = shown?.params;
    if (!p) return;
    setPrompt(typeof p.prompt === 'string' ? p.prompt : '');
    if (p.output_format === 'png' || p.output_format === 'webp' || p.output_format === 'jpeg')
      setFormat(p.output_format);
  }, [shown?.id]);

  // A new photo after a finished job starts a new run (the old result leaves the canvas).
  useEffect(() => {
    if (upload.file && run.state && !run.busy) startOverRun();
  }, [upload.file]);

  const startOver = () => {
    strokes.clear(surfaces);
    startOverRun();
  };

  const fields: Record<string, string> = { output_format: format, ...(prompt.trim() && { prompt: prompt.trim() }) };
  const painted = strokes.edits.edited;
  // The strokes are part of the request: painting more after a run is a different job.
  const fingerprint = uploadFingerprint(upload.file, { ...fields, strokes: strokes.version });
  const start = async () => {
    if (!upload.file || !surfaces || !painted) return;
    const body = new FormData();
    body.append('image', upload.file);
    body.append('mask', await surfaces.maskPng(), 'mask.png');
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  // A HEIC or TIFF this browser cannot show cannot be painted on either.
  const noPreview = upload.file !== null && upload.facts?.noPreview === true;
  const result = run.state?.status === 'succeeded' ? run.state.job.results[0] : undefined;
  const before = upload.previewUrl ?? run.job?.input_preview_url ?? run.job?.input_url ?? null;
  const canvas =
    result && before ? (
      <figure className="result-single" data-testid="result">
        <ComparisonSlider
          before={before}
          after={result.url}
          beforeLabel={t('client-tools.erase.before')}
          afterLabel={t('client-tools.erase.after')}
          label={t('client-tools.erase.compare')}
          aspect={result.width / result.height}
        />
        <figcaption className="result-card__actions">
          <DownloadLink job={run.job!} />
        </figcaption>
      </figure>
    ) : (
      <>
        <JobStatus run={run} />
        {upload.previewUrl ? (
          <ErasePainter surfaces={surfaces} strokes={strokes} busy={run.busy} />
        ) : noPreview ? (
          <p className="notice" data-testid="erase-no-preview">
            {t('client-tools.erase.noPreview')}
          </p>
        ) : (
          <EmptyState icon={<ImagePlus aria-hidden="true" />} text={t('client-tools.erase.empty')} />
        )}
      </>
    );

  const blocker = !upload.file
    ? upload.checking
      ? null
      : t('client-tools.run.chooseImage')
    : noPreview
      ? t('client-tools.erase.noPreview')
      : !painted
        ? t('client-tools.erase.paintFirst')
        : null;
  return (
    <ToolLayout
      title={t('client-tools.erase.title')}
      lead={t('client-tools.erase.lead')}
      canvas={canvas}
      activity={run.activity}
      announcement={runAnnouncement(t, run)}
      controls={
        <>
          <UploadZone upload={upload} disabled={run.busy} single />
          <fieldset className="tool-form" disabled={run.busy}>
            <legend className="tool-form__legend">{t('client-tools.common.options')}</legend>
            <EraseOptions prompt={prompt} onPrompt={setPrompt} format={format} onFormat={setFormat} />
          </fieldset>
          <RunPanel
            tool="erase"
            label={t('client-tools.erase.run')}
            cost={quote?.cost}
            blocker={blocker}
            disabled={!upload.file || upload.checking || upload.problem !== null || !surfaces || !painted}
            fingerprint={fingerprint}
            onRun={() => void start()}
          />
          <NewRunButton run={run} onClick={startOver} />
        </>
      }
    />
  );
});

/** The run's options: what to fill the area with (optional) and the output format. */
function EraseOptions({
  prompt,
  onPrompt,
  format,
  onFormat,
}: {
  prompt: string;
  onPrompt(prompt: string): void;
  format: OutputFormat;
  onFormat(format: OutputFormat): void;
}) {
  const t = useT();
  return (
    <>
      <PromptField
        label={t('client-tools.erase.prompt')}
        placeholder={t('client-tools.erase.promptPlaceholder')}
        value={prompt}
        onChange={onPrompt}
      />
      <OutputFormatSelect label={t('client-tools.erase.format')} value={format} onChange={onFormat} />
    </>
  );
}
