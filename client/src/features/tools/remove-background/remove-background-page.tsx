import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { isDoubtfulCutout } from '@imagestudio/contracts';
import { Checkbox, Select } from '../../../components';
import { useStore } from '../../../stores';
import { BackdropPicker, backdropColor, type Backdrop } from './backdrop-picker';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { DownloadLink } from '../result-image';
import { InputPreview, UploadToolLayout, uploadFingerprint, useUploadTool } from '../upload-tool';
import { PhotoEditor } from '../photo-editor/photo-editor';
import { PhotoSettingsForm } from '../photo-editor/photo-settings-form';
import { DEFAULT_PHOTO_SETTINGS, photoFields, type PhotoSettings } from '../photo-editor/photo-settings';

/**
 * /services/remove-background: upload, options, the result beside the original in a comparison slider over
 * a backdrop of the user's choice (view only), download; under it the finishing editor (layout, background,
 * shadow, format, touch-up brush) with its free download. A batch can finish every picture the same way.
 */
export const RemoveBackgroundPage = observer(function RemoveBackgroundPage() {
  const { tools, t } = useStore();
  const { run, batch, startOver, upload, preview } = useUploadTool('remove-background');
  const [format, setFormat] = useState<'png' | 'webp'>('png');
  const [useColor, setUseColor] = useState(false);
  const [color, setColor] = useState('#ffffff');
  const [maskOnly, setMaskOnly] = useState(false);
  const [backdrop, setBackdrop] = useState<Backdrop>('checker');
  const [previewColor, setPreviewColor] = useState('#19c3a6');
  // A batch's finishing settings (off: each item is the plain cut-out of the options above).
  const [batchFinish, setBatchFinish] = useState(false);
  const [batchSettings, setBatchSettings] = useState<PhotoSettings>(DEFAULT_PHOTO_SETTINGS);
  const [batchBackground, setBatchBackground] = useState<File | null>(null);
  const quote = tools.quote('remove-background');

  useEffect(() => {
    void tools.loadQuote('remove-background');
  }, [tools]);

  // A job opened by URL, from projects or after a reload shows the options it ran with, not the defaults.
  const shown = run.job;
  useEffect(() => {
    const p = shown?.params;
    if (!p) return;
    if (p.output_format === 'png' || p.output_format === 'webp') setFormat(p.output_format);
    setMaskOnly(p.mask_only === true);
    const background = typeof p.background_color === 'string' ? p.background_color : null;
    setUseColor(background !== null);
    if (background) setColor(background);
    // Only when another job is shown: later edits of the options are the user's.
  }, [shown?.id]);

  const options = { format, background: useColor && !maskOnly ? color : null, maskOnly };
  const fingerprint = uploadFingerprint(upload.file, options);
  // The options as the API's form fields, for a single run and for a batch alike.
  const fields: Record<string, string> = {
    output_format: format,
    mask_only: String(maskOnly),
    ...(options.background ? { background_color: options.background } : {}),
  };
  const batchMode = upload.batch !== null || batch.phase !== 'idle';
  const finishing = batchMode && batchFinish;
  // A batch that finishes its pictures takes the editor's fields (and its background image) instead.
  const batchFields: Record<string, string | Blob> = finishing
    ? {
        ...photoFields(batchSettings),
        ...(batchSettings.background === 'image' && batchBackground ? { background_image: batchBackground } : {}),
      }
    : fields;
  const start = () => {
    if (!upload.file) return;
    const body = new FormData();
    body.append('image', upload.file);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  const job = run.state?.status === 'succeeded' ? run.state.job : null;
  const result = job?.results[0];
  // A filled or mask result is opaque: nothing would show through a backdrop.
  const transparent = job ? !job.params.background_color && !job.params.mask_only : false;
  const canvas =
    job && result && preview ? (
      <>
        <figure className="result-single" data-testid="result">
          {transparent ? (
            <BackdropPicker value={backdrop} color={previewColor} onChange={setBackdrop} onColor={setPreviewColor} />
          ) : null}
          <ComparisonSlider
            before={preview}
            after={result.url}
            beforeLabel={t('client-tools.removeBg.before')}
            afterLabel={t('client-tools.removeBg.after')}
            label={t('client-tools.removeBg.compare')}
            aspect={result.width / result.height}
            backdrop={transparent ? backdropColor(backdrop, previewColor) : null}
          />
          <figcaption className="result-card__actions">
            <DownloadLink job={job} />
          </figcaption>
        </figure>
        {job.params.mask_only ? null : (
          <>
            {/* The worker's cut-out confidence (contracts' cutoutConfidence): the brush below is the fix. */}
            {isDoubtfulCutout(job.cutout_confidence) ? (
              <p className="notice notice--warning" role="status" data-testid="cutout-doubtful">
                {t('client-tools.removeBg.doubtful')}
              </p>
            ) : null}
            <PhotoEditor job={job} />
          </>
        )}
      </>
    ) : (
      <InputPreview run={run} preview={preview} emptyText={t('client-tools.removeBg.empty')} />
    );

  return (
    <UploadToolLayout
      tool="remove-background"
      title={t('client-tools.removeBg.title')}
      lead={t('client-tools.removeBg.lead')}
      canvas={canvas}
      run={run}
      batch={batch}
      upload={upload}
      fields={batchFields}
      startOver={startOver}
      runLabel={t('client-tools.removeBg.run')}
      cost={quote?.cost}
      fingerprint={fingerprint}
      onRun={start}
    >
      {batchMode ? (
        <Checkbox
          label={t('client-tools.editor.batchFinish')}
          checked={batchFinish}
          onChange={(e) => setBatchFinish(e.target.checked)}
        />
      ) : null}
      {finishing ? (
        <PhotoSettingsForm
          settings={batchSettings}
          onChange={setBatchSettings}
          backgroundImage={batchBackground}
          onBackgroundImage={setBatchBackground}
        />
      ) : (
        <>
          <Select
            label={t('client-tools.removeBg.format')}
            value={format}
            options={[
              { value: 'png', label: 'PNG' },
              { value: 'webp', label: 'WebP' },
            ]}
            onChange={(e) => setFormat(e.target.value as 'png' | 'webp')}
          />
          <Checkbox
            label={t('client-tools.removeBg.maskOnly')}
            checked={maskOnly}
            onChange={(e) => setMaskOnly(e.target.checked)}
          />
          <Checkbox
            label={t('client-tools.removeBg.useColor')}
            checked={useColor}
            disabled={maskOnly}
            onChange={(e) => setUseColor(e.target.checked)}
          />
          {useColor && !maskOnly ? (
            <label className="tool-form__color">
              <span>{t('client-tools.removeBg.color')}</span>
              <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
              <code>{color}</code>
            </label>
          ) : null}
        </>
      )}
    </UploadToolLayout>
  );
});
