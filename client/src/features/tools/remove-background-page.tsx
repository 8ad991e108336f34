import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Checkbox, Select } from '../../components';
import { useStore } from '../../stores';
import { DownloadLink, resultFileName } from './result-image';
import { InputPreview, UploadToolLayout, useUploadTool } from './upload-tool';

/** /services/remove-background: upload, options, the transparent result on a checkerboard, download. */
export const RemoveBackgroundPage = observer(function RemoveBackgroundPage() {
  const { tools, t } = useStore();
  const { run, startOver, upload, preview } = useUploadTool('remove-background');
  const [format, setFormat] = useState<'png' | 'webp'>('png');
  const [useColor, setUseColor] = useState(false);
  const [color, setColor] = useState('#ffffff');
  const [maskOnly, setMaskOnly] = useState(false);
  const quote = tools.quote('remove-background');

  useEffect(() => {
    void tools.loadQuote('remove-background');
  }, [tools]);

  const start = () => {
    if (!upload.file) return;
    const body = new FormData();
    body.append('image', upload.file);
    body.append('output_format', format);
    if (useColor && !maskOnly) body.append('background_color', color);
    body.append('mask_only', String(maskOnly));
    void run.submit(body, quote?.cost ?? 0);
  };

  const result = run.state?.status === 'succeeded' ? run.state.job.results[0] : undefined;
  const canvas = result ? (
    <figure className="result-single" data-testid="result">
      <div className="result-single__frame checkerboard" style={{ aspectRatio: `${result.width} / ${result.height}` }}>
        <img src={result.url} alt={t('client-tools.removeBg.resultAlt')} data-testid="result-image" />
      </div>
      <figcaption className="result-card__actions">
        <DownloadLink result={result} name={resultFileName('remove-background', run.job!.id, 0, result.format)} />
      </figcaption>
    </figure>
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
      upload={upload}
      startOver={startOver}
      runLabel={t('client-tools.removeBg.run')}
      cost={quote?.cost}
      onRun={start}
    >
      <Select
        label={t('client-tools.removeBg.format')}
        value={format}
        options={[
          { value: 'png', label: 'PNG' },
          { value: 'webp', label: 'WebP' },
        ]}
        onChange={(e) => setFormat(e.target.value as 'png' | 'webp')}
      />
      <Checkbox label={t('client-tools.removeBg.maskOnly')} checked={maskOnly} onChange={(e) => setMaskOnly(e.target.checked)} />
      <Checkbox label={t('client-tools.removeBg.useColor')} checked={useColor} disabled={maskOnly} onChange={(e) => setUseColor(e.target.checked)} />
      {useColor && !maskOnly ? (
        <label className="tool-form__color">
          <span>{t('client-tools.removeBg.color')}</span>
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          <code>{color}</code>
        </label>
      ) : null}
    </UploadToolLayout>
  );
});
