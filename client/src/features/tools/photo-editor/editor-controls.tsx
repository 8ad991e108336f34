import { Download } from 'lucide-react';
import { Button } from '../../../components';
import { useT } from '../../../stores';
import type { PhotoSettings } from './photo-settings';
import { PhotoSettingsForm } from './photo-settings-form';
import type { useComposeDownload } from './use-compose-download';

/** The editor's side panel: the finishing settings and the free download of the picture they make. */
export function EditorControls({
  settings,
  onSettings,
  backgroundFile,
  onBackgroundFile,
  canDownload,
  download,
}: {
  settings: PhotoSettings;
  onSettings(next: PhotoSettings): void;
  backgroundFile: File | null;
  onBackgroundFile(file: File | null): void;
  canDownload: boolean;
  download: ReturnType<typeof useComposeDownload>;
}) {
  const t = useT();
  return (
    <div className="photo-editor__controls">
      <PhotoSettingsForm
        settings={settings}
        onChange={onSettings}
        backgroundImage={backgroundFile}
        onBackgroundImage={onBackgroundFile}
      />
      <Button
        variant="primary"
        block
        busy={download.busy}
        busyText={t('client-tools.editor.downloading')}
        disabled={!canDownload}
        onClick={() => void download.download()}
        icon={<Download aria-hidden="true" />}
        data-testid="compose-download"
      >
        {t('client-tools.editor.download')}
      </Button>
      <p className="photo-editor__note">{t('client-tools.editor.free')}</p>
      {download.failed ? (
        <p className="notice notice--error" role="alert">
          {t('client-tools.editor.failed')}
        </p>
      ) : null}
    </div>
  );
}
