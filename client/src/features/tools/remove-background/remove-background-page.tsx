import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Checkbox } from '../../../components';
import { useStore } from '../../../stores';
import { InputPreview, UploadToolLayout, uploadFingerprint, useUploadTool } from '../upload-tool';
import { PhotoSettingsForm } from '../photo-editor/photo-settings-form';
import { DEFAULT_PHOTO_SETTINGS, photoFields, type PhotoSettings } from '../photo-editor/photo-settings';
import { CutoutOptionsForm, useCutoutOptions, type CutoutValues } from './cutout-options';
import { CutoutResult } from './cutout-result';

/** Every option of the page, kept in IndexedDB while the customer buys tokens. */
interface KeptOptions {
  cutout?: CutoutValues;
  batchFinish?: boolean;
  batchSettings?: Partial<PhotoSettings>;
  batchBackground?: File | null;
}

/**
 * /services/remove-background: upload, options, the result beside the original in a comparison slider over
 * a backdrop of the user's choice (view only), download; under it the finishing editor (layout, background,
 * shadow, format, touch-up brush) with its free download. A batch can finish every picture the same way.
 */
export const RemoveBackgroundPage = observer(function RemoveBackgroundPage() {
  const { tools, t } = useStore();
  const { run, batch, startOver, upload, preview, restored } = useUploadTool('remove-background');
  const kept = restored as KeptOptions | null;
  const options = useCutoutOptions(run.job, kept?.cutout);
  // A batch's finishing settings (off: each item is the plain cut-out of the options above).
  const [batchFinish, setBatchFinish] = useState(false);
  const [batchSettings, setBatchSettings] = useState<PhotoSettings>(DEFAULT_PHOTO_SETTINGS);
  const [batchBackground, setBatchBackground] = useState<File | null>(null);
  const quote = tools.quote('remove-background');

  // Back from buying tokens: the batch's finishing as it was (the cut-out options restore themselves).
  useEffect(() => {
    if (!kept) return;
    if (typeof kept.batchFinish === 'boolean') setBatchFinish(kept.batchFinish);
    if (kept.batchSettings) setBatchSettings({ ...DEFAULT_PHOTO_SETTINGS, ...kept.batchSettings });
    if (kept.batchBackground instanceof Blob) setBatchBackground(kept.batchBackground);
  }, [kept]);
  const keep = { cutout: options.kept, batchFinish, batchSettings, batchBackground } satisfies KeptOptions;

  useEffect(() => {
    void tools.loadQuote('remove-background');
  }, [tools]);

  const fingerprint = uploadFingerprint(upload.file, options.fingerprint);
  const batchMode = upload.batch !== null || batch.phase !== 'idle';
  const finishing = batchMode && batchFinish;
  // A batch that finishes its pictures takes the editor's fields (and its background image) instead.
  const batchFields: Record<string, string | Blob> = finishing
    ? {
        ...photoFields(batchSettings),
        ...options.modelFields,
        ...(batchSettings.background === 'image' && batchBackground ? { background_image: batchBackground } : {}),
      }
    : options.fields;
  const start = () => {
    if (!upload.file) return;
    const body = new FormData();
    body.append('image', upload.file);
    for (const [name, value] of Object.entries(options.fields)) body.append(name, value);
    void run.submit(body, quote?.cost ?? 0, fingerprint);
  };

  const job = run.state?.status === 'succeeded' ? run.state.job : null;
  const canvas =
    job?.results[0] && preview ? (
      <CutoutResult job={job} preview={preview} />
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
      keep={keep}
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
        <CutoutOptionsForm options={options} />
      )}
    </UploadToolLayout>
  );
});
