import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { ImagePlus } from 'lucide-react';
import {
  EXPAND_POSITIONS,
  expandCanvas,
  expandRefusal,
  type ExpandChoice,
  type ExpandPosition,
} from '@imagestudio/contracts';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { EmptyState } from '../../../components';
import { useStore } from '../../../stores';
import { JobStatus } from '../job-status';
import { DownloadLink } from '../result-image';
import type { ToolRunStore } from '../stores/tool-run-store';
import { UploadToolLayout, uploadFingerprint, useUploadTool } from '../upload-tool';
import { CanvasOutline, useBeforeOnCanvas } from './canvas-preview';
import { CANVAS_OPTIONS, CanvasPickers, canvasFields, choiceOf, ranChoice, type CanvasOption } from './expand-options';
import { OutputFormatSelect, PromptField, type OutputFormat } from '../tool-fields';

/**
 * The page's canvas: the finished result on the before/after slider (its "before" the photo at its place on the
 * canvas the job ran with), else the job's status over the live outline of the chosen canvas around the photo.
 */
const ExpandCanvasView = observer(function ExpandCanvasView({
  run,
  before,
  choice,
}: {
  run: ToolRunStore;
  before: string | null;
  choice: ExpandChoice;
}) {
  const { t } = useStore();
  const result = run.state?.status === 'succeeded' ? run.state.job.results[0] : undefined;
  const beforeOnCanvas = useBeforeOnCanvas(result ? before : null, result ? ranChoice(run.job!.params) : null);
  if (result && beforeOnCanvas)
    return (
      <figure className="result-single" data-testid="result">
        <ComparisonSlider
          before={beforeOnCanvas}
          after={result.url}
          beforeLabel={t('client-tools.expand.before')}
          afterLabel={t('client-tools.expand.after')}
          label={t('client-tools.expand.compare')}
          aspect={result.width / result.height}
        />
        <figcaption className="result-card__actions">
          <DownloadLink job={run.job!} />
        </figcaption>
      </figure>
    );
  return (
    <>
      <JobStatus run={run} />
      {before ? (
        <CanvasOutline url={before} choice={choice} label={t('client-tools.expand.previewLabel')} />
      ) : (
        <EmptyState icon={<ImagePlus aria-hidden="true" />} text={t('client-tools.expand.empty')} />
      )}
    </>
  );
});

/**
 * /services/expand: upload (one photo or a batch), the new canvas (a shape or a factor) and the photo's place on
 * it with a live outline, an optional prompt, the output format, and the result on a before/after slider whose
 * "before" is the photo at its place on the canvas.
 */
export const ExpandPage = observer(function ExpandPage() {
  const { tools, t } = useStore();
  const [option, setOption] = useState<CanvasOption>('16:9');
  const [position, setPosition] = useState<ExpandPosition>('center');
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState<OutputFormat>('png');
  const { run, batch, startOver, upload, preview: before } = useUploadTool('expand');
  const quote = tools.quote('expand', 1);

  useEffect(() => {
    void tools.loadQuote('expand', 1);
  }, [tools]);

  // A job opened by URL, from projects or after a reload shows the options it ran with.
  const shown = run.job;
  useEffect(() => {
    const p = shown?.params;
    if (!p) return;
    const ran = String(p.aspect ?? p.factor ?? '');
    if ((CANVAS_OPTIONS as string[]).includes(ran)) setOption(ran as CanvasOption);
    if ((EXPAND_POSITIONS as readonly unknown[]).includes(p.position)) setPosition(p.position as ExpandPosition);
    setPrompt(typeof p.prompt === 'string' ? p.prompt : '');
    if (p.output_format === 'png' || p.output_format === 'webp' || p.output_format === 'jpeg')
      setFormat(p.output_format);
  }, [shown?.id]);

  const choice = choiceOf(option, position);
  const fields: Record<string, string> = {
    ...canvasFields(option),
    position,
    ...(prompt.trim() ? { prompt: prompt.trim() } : {}),
    output_format: format,
  };
  const fingerprint = uploadFingerprint(upload.file, fields);
  const start = () => {
    if (!upload.file) return;
    const body = new FormData();
    body.append('image', upload.file);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  // The exact size the chosen photo would get (the browser read its pixels), unless it cannot be expanded so.
  const facts = upload.facts;
  const photo = facts?.width && facts.height ? { width: facts.width, height: facts.height } : null;
  const planned = photo && !expandRefusal(photo, choice) ? expandCanvas(photo, choice) : null;

  return (
    <UploadToolLayout
      tool="expand"
      title={t('client-tools.expand.title')}
      lead={t('client-tools.expand.lead')}
      canvas={<ExpandCanvasView run={run} before={before} choice={choice} />}
      run={run}
      batch={batch}
      upload={upload}
      fields={fields}
      startOver={startOver}
      runLabel={t('client-tools.expand.run')}
      cost={quote?.cost}
      fingerprint={fingerprint}
      onRun={start}
    >
      <CanvasPickers option={option} position={position} onOption={setOption} onPosition={setPosition} />
      {planned && (
        <p className="expand-size" data-testid="expand-size">
          {t('client-tools.expand.size', { width: planned.width, height: planned.height })}
        </p>
      )}
      <PromptField
        label={t('client-tools.expand.prompt')}
        placeholder={t('client-tools.expand.promptPlaceholder')}
        value={prompt}
        onChange={setPrompt}
      />
      <OutputFormatSelect label={t('client-tools.expand.format')} value={format} onChange={setFormat} />
    </UploadToolLayout>
  );
});
