import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { DEFAULT_UPSCALE_MODEL, UPSCALE_MODELS, type UpscaleModel } from '@imagestudio/contracts';
import { Select } from '../../../components';
import { useStore } from '../../../stores';
import { maxUpscaleSide } from '../upload-checks';
import { InputPreview, UploadToolLayout, uploadFingerprint, useUploadTool } from '../upload-tool';
import { UpscaleResult } from './upscale-result';
import { OutputFormatSelect, type OutputFormat } from '../tool-fields';

/**
 * /services/upscale: upload, model (the ones live workers run, one sentence each), factor 2 or 4 with its size
 * limit, before/after slider and zoom lens on the chosen model's result, download.
 */
export const UpscalePage = observer(function UpscalePage() {
  const { tools, settings, t } = useStore();
  const factors = (settings.settings?.upscale_factors ?? [2, 4]).filter((f) => f === 2 || f === 4);
  const [factor, setFactor] = useState<number>(factors[0] ?? 2);
  const [format, setFormat] = useState<OutputFormat>('png');
  const [model, setModel] = useState<UpscaleModel>(DEFAULT_UPSCALE_MODEL);
  const offered = tools.models('upscale');
  // Before the status is known (or when no worker is up) the full list shows; the server has the last word.
  const choices = UPSCALE_MODELS.filter((m) => (offered.length === 0 ? m !== 'photo-max' : offered.includes(m)));
  const { run, batch, startOver, upload, preview: before, restored } = useUploadTool('upscale', factor);
  const quote = tools.quote('upscale', 1, factor, model);

  useEffect(() => {
    void tools.loadQuote('upscale', 1, factor, model);
  }, [tools, factor, model]);

  /** Takes a job's options, or the form fields kept across a token purchase (the factor then a string). */
  const applyOptions = (p: Record<string, unknown>) => {
    const f = Number(p.factor);
    if (f === 2 || f === 4) setFactor(f);
    if (UPSCALE_MODELS.includes(p.model as UpscaleModel)) setModel(p.model as UpscaleModel);
    if (p.output_format === 'png' || p.output_format === 'webp' || p.output_format === 'jpeg')
      setFormat(p.output_format);
  };
  // A job opened by URL, from projects or after a reload shows the options it ran with, not the defaults.
  const shown = run.job;
  useEffect(() => {
    if (shown?.params) applyOptions(shown.params);
    // Only when another job is shown: later edits of the options are the user's.
  }, [shown?.id]);
  // Back from buying tokens: the options chosen before the purchase.
  useEffect(() => {
    if (restored) applyOptions(restored);
  }, [restored]);

  useEffect(() => {
    if (!choices.includes(model) && choices[0])
      setModel(choices.includes(DEFAULT_UPSCALE_MODEL) ? DEFAULT_UPSCALE_MODEL : choices[0]);
  }, [choices, model]);

  const fingerprint = uploadFingerprint(upload.file, { factor, format });
  // The options as the API's form fields, for a single run and for a batch alike.
  const fields: Record<string, string> = { factor: String(factor), model, output_format: format };
  const start = () => {
    if (!upload.file) return;
    const body = new FormData();
    body.append('image', upload.file);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  const result = run.state?.status === 'succeeded' ? run.state.job.results[0] : undefined;
  const canvas =
    result && before ? (
      <UpscaleResult result={result} before={before} job={run.job!} />
    ) : (
      <InputPreview run={run} preview={before} emptyText={t('client-tools.upscale.empty')} />
    );

  return (
    <UploadToolLayout
      tool="upscale"
      title={t('client-tools.upscale.title')}
      lead={t('client-tools.upscale.lead')}
      canvas={canvas}
      run={run}
      batch={batch}
      upload={upload}
      fields={fields}
      startOver={startOver}
      runLabel={t('client-tools.upscale.run')}
      cost={quote?.cost}
      fingerprint={fingerprint}
      onRun={start}
    >
      <fieldset className="field model-picker" data-testid="model-picker">
        <legend className="field__label">{t('client-tools.upscale.model')}</legend>
        {choices.map((m) => (
          <label key={m} className="model-picker__option">
            <input type="radio" name="upscale-model" value={m} checked={model === m} onChange={() => setModel(m)} />
            <span>{t(`client-tools.upscale.model.${m}`)}</span>
          </label>
        ))}
      </fieldset>
      <Select
        label={t('client-tools.upscale.factor')}
        value={String(factor)}
        options={factors.map((f) => ({
          value: String(f),
          label: t('client-tools.upscale.factorOption', { factor: f, side: maxUpscaleSide(f) }),
        }))}
        onChange={(e) => setFactor(Number(e.target.value))}
      />
      <OutputFormatSelect label={t('client-tools.upscale.format')} value={format} onChange={setFormat} />
    </UploadToolLayout>
  );
});
