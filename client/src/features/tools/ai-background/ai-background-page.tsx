import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { AI_BACKGROUND_PRESET_IDS, type AiBackgroundPreset } from '@imagestudio/contracts';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { useStore } from '../../../stores';
import { DownloadLink } from '../result-image';
import { InputPreview, UploadToolLayout, uploadFingerprint, useUploadTool } from '../upload-tool';
import { OutputFormatSelect, PromptField, type OutputFormat } from '../tool-fields';

/** A preset, or the user's own prompt. */
type Scene = AiBackgroundPreset | 'custom';

/** Takes a job's options, or the form fields kept across a token purchase, into the page's state. */
function applyOptions(
  p: Record<string, unknown>,
  set: { scene(s: Scene): void; prompt(p: string): void; format(f: OutputFormat): void },
): void {
  if (AI_BACKGROUND_PRESET_IDS.includes(p.preset as AiBackgroundPreset)) set.scene(p.preset as AiBackgroundPreset);
  else if (typeof p.prompt === 'string') {
    set.scene('custom');
    set.prompt(p.prompt);
  }
  if (p.output_format === 'png' || p.output_format === 'webp' || p.output_format === 'jpeg')
    set.format(p.output_format);
}

/**
 * /services/ai-background: upload (one photo or a batch), a scene preset or an own prompt, the output format,
 * and the result over the photo on a before/after slider with its download.
 */
export const AiBackgroundPage = observer(function AiBackgroundPage() {
  const { tools, t } = useStore();
  const [scene, setScene] = useState<Scene>('studio-white');
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState<OutputFormat>('png');
  const { run, batch, startOver, upload, preview: before, restored } = useUploadTool('ai-background');
  const quote = tools.quote('ai-background', 1);

  useEffect(() => {
    void tools.loadQuote('ai-background', 1);
  }, [tools]);

  // A job opened by URL, from projects or after a reload shows the options it ran with; the way back from
  // buying tokens, the options chosen before the purchase.
  const setters = { scene: setScene, prompt: setPrompt, format: setFormat };
  const shown = run.job;
  useEffect(() => {
    if (shown?.params) applyOptions(shown.params, setters);
  }, [shown?.id]);
  useEffect(() => {
    if (restored) applyOptions(restored, setters);
  }, [restored]);

  // Exactly one of prompt and preset goes to the API.
  const fields: Record<string, string> =
    scene === 'custom' ? { prompt: prompt.trim(), output_format: format } : { preset: scene, output_format: format };
  const fingerprint = uploadFingerprint(upload.file, fields);
  const start = () => {
    if (!upload.file || (scene === 'custom' && prompt.trim() === '')) return;
    const body = new FormData();
    body.append('image', upload.file);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  const result = run.state?.status === 'succeeded' ? run.state.job.results[0] : undefined;
  const canvas =
    result && before ? (
      <figure className="result-single" data-testid="result">
        <ComparisonSlider
          before={before}
          after={result.url}
          beforeLabel={t('client-tools.ai-background.before')}
          afterLabel={t('client-tools.ai-background.after')}
          label={t('client-tools.ai-background.compare')}
          aspect={result.width / result.height}
        />
        <figcaption className="result-card__actions">
          <DownloadLink job={run.job!} />
        </figcaption>
      </figure>
    ) : (
      <InputPreview run={run} preview={before} emptyText={t('client-tools.ai-background.empty')} />
    );

  return (
    <UploadToolLayout
      tool="ai-background"
      title={t('client-tools.ai-background.title')}
      lead={t('client-tools.ai-background.lead')}
      canvas={canvas}
      run={run}
      batch={batch}
      upload={upload}
      fields={fields}
      startOver={startOver}
      runLabel={t('client-tools.ai-background.run')}
      cost={quote?.cost}
      fingerprint={fingerprint}
      onRun={start}
    >
      <fieldset className="field model-picker" data-testid="scene-picker">
        <legend className="field__label">{t('client-tools.ai-background.scene')}</legend>
        {[...AI_BACKGROUND_PRESET_IDS, 'custom' as const].map((s) => (
          <label key={s} className="model-picker__option">
            <input
              type="radio"
              name="ai-background-scene"
              value={s}
              checked={scene === s}
              onChange={() => setScene(s)}
            />
            <span>{t(`client-tools.ai-background.preset.${s}`)}</span>
          </label>
        ))}
      </fieldset>
      {scene === 'custom' && (
        <PromptField
          label={t('client-tools.ai-background.prompt')}
          placeholder={t('client-tools.ai-background.promptPlaceholder')}
          value={prompt}
          onChange={setPrompt}
          rows={3}
        />
      )}
      <OutputFormatSelect label={t('client-tools.ai-background.format')} value={format} onChange={setFormat} />
    </UploadToolLayout>
  );
});
