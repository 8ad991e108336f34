import { useRef, useState } from 'react';
import type { JobView } from '@imagestudio/contracts';
import { ConfirmDialog, Spinner } from '../../../components';
import { useStore } from '../../../stores';
import { BrushPanel } from './brush-panel';
import { DraftStatus } from './draft-status';
import { EditorControls } from './editor-controls';
import { LayoutPreview } from './layout-preview';
import { photoFields, photoSettingsReady, DEFAULT_PHOTO_SETTINGS, type PhotoSettings } from './photo-settings';
import { TouchUpCanvas } from './touch-up-canvas';
import { useBrush } from './use-brush';
import { useComposeDownload } from './use-compose-download';
import { useComposeForm } from './use-compose-form';
import { useComposePreview } from './use-compose-preview';
import { useCutout } from './use-cutout';
import { useLeaveGuard } from './use-leave-guard';
import { useMatteHistory } from './use-matte-history';
import './photo-editor.css';

type Mode = 'layout' | 'touchUp';

/**
 * After a cut-out: the finishing editor beside the comparison. The layout view shows the picture the server
 * renders (`POST /api/jobs/{id}/compose/preview`: the download itself, scaled; use-compose-preview.ts). Touch up
 * paints the matte (erase, restore, undo) with the mouse, a pen or a finger on the cut-out drawn in the browser
 * (use-brush.ts); the edited matte is encoded once when the layout is shown again and sent with every preview and
 * the download. The strokes are saved on the server as the job's draft as they are made (use-matte-history.ts) and
 * painted again when the editor opens; leaving (in the app or closing the tab) while a save waits or failed asks
 * first.
 */
export function PhotoEditor({ job }: { job: JobView }) {
  const { t } = useStore();
  const history = useMatteHistory();
  const { loaded, hasSources } = useCutout(job, history);
  const [settings, setSettings] = useState<PhotoSettings>(DEFAULT_PHOTO_SETTINGS);
  const [backgroundFile, setBackgroundFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('layout');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const unsaved = history.draftState !== 'saved';
  const blocker = useLeaveGuard(unsaved, history.flush);

  const surfaces = loaded.state === 'ready' ? loaded.surfaces : null;
  const ready = photoSettingsReady(settings, backgroundFile !== null);
  const composeForm = useComposeForm(settings, backgroundFile, surfaces, history);
  const preview = useComposePreview({
    jobId: job.id,
    layout: mode === 'layout',
    hasSources,
    ready,
    fieldsKey: JSON.stringify(photoFields(settings)),
    backgroundFile,
    editsVersion: history.version,
    composeForm,
  });
  const download = useComposeDownload(job, composeForm, !!surfaces && ready);
  const touchUp = mode === 'touchUp';
  const brush = useBrush({ canvasRef, surfaces, touchUp, busy: download.busy, history });

  if (loaded.state === 'unavailable')
    return (
      <p className="photo-editor__note" data-testid="photo-editor-unavailable">
        {t('client-tools.editor.unavailable')}
      </p>
    );

  return (
    <section className="photo-editor" aria-labelledby="photo-editor-title" aria-live="off" data-testid="photo-editor">
      <header className="photo-editor__header">
        <h2 id="photo-editor-title">{t('client-tools.editor.title')}</h2>
        <p>{t('client-tools.editor.lead')}</p>
      </header>
      <div className="photo-editor__grid">
        <div className="photo-editor__stage">
          <div className="segmented" role="group" aria-label={t('client-tools.editor.mode')}>
            {(['layout', 'touchUp'] as const).map((m) => (
              <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)}>
                {t(m === 'layout' ? 'client-tools.editor.modeLayout' : 'client-tools.editor.modeTouchUp')}
              </button>
            ))}
          </div>
          <div className="photo-editor__frame">
            {!touchUp ? (
              <LayoutPreview url={preview.previewUrl} busy={preview.previewBusy} error={preview.previewError} />
            ) : surfaces ? (
              <TouchUpCanvas canvasRef={canvasRef} surfaces={surfaces} brush={brush} />
            ) : (
              <Spinner label={t('client-tools.editor.loading')} />
            )}
          </div>
          {unsaved || (touchUp && history.edits.edited) ? (
            <DraftStatus state={history.draftState} onRetry={history.flush} />
          ) : null}
          {!touchUp && preview.previewError ? (
            <p className="notice notice--error" role="alert" data-testid="preview-error">
              {preview.previewError}
            </p>
          ) : null}
          {touchUp ? (
            <BrushPanel
              brush={brush}
              history={history}
              onUndo={() => history.undo(surfaces)}
              onReset={() => history.reset(surfaces)}
            />
          ) : null}
        </div>
        <EditorControls
          settings={settings}
          onSettings={setSettings}
          backgroundFile={backgroundFile}
          onBackgroundFile={setBackgroundFile}
          canDownload={!!surfaces && ready}
          download={download}
        />
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title={t('client-tools.editor.leaveTitle')}
        confirmLabel={t('client-tools.editor.leaveGo')}
        cancelLabel={t('client-tools.editor.leaveStay')}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      >
        {t('client-tools.editor.leaveLead')}
      </ConfirmDialog>
    </section>
  );
}
