import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useBlocker } from 'react-router';
import { Download, Undo2 } from 'lucide-react';
import { endpoints, resultDownloadName, type ComposeSourcesView, type JobView } from '@imagestudio/contracts';
import { Button, ConfirmDialog, Slider, Spinner } from '../../../components';
import { ApiRequestError } from '../../../lib/api/api-error';
import { useStore } from '../../../stores';
import { composeSourcesOf } from './compose-sources';
import { brushKeyAction } from './keyboard-brush';
import { DraftSaver, loadDraft, type DraftState } from './matte-draft';
import { MatteEdits, type BrushMode, type BrushStroke, type Point } from './matte-edits';
import { photoFields, photoSettingsReady, DEFAULT_PHOTO_SETTINGS, type PhotoSettings } from './photo-settings';
import { PhotoSettingsForm } from './photo-settings-form';
import { CutoutSurfaces, drawTouchUp, loadImage } from './preview-canvas';
import './photo-editor.css';

type Mode = 'layout' | 'touchUp';
type Loaded = { state: 'loading' } | { state: 'ready'; surfaces: CutoutSurfaces } | { state: 'unavailable' };

/**
 * How long the settings must rest before the server is asked for a preview: a slider dragged or a colour picked
 * sends one request when it settles, not one per step.
 */
export const PREVIEW_DELAY_MS = 250;

/** The brush's diameter range, in pixels of the preview on screen. */
const BRUSH_MIN = 4;
const BRUSH_MAX = 120;

/** Reads the job's compose sources, asking for the job again when the view on hand (a live report) lacks them. */
async function sourcesFor(job: JobView, refetch: () => Promise<JobView | null>): Promise<ComposeSourcesView | null> {
  const own = composeSourcesOf(job);
  if (own !== undefined) return own;
  const fresh = await refetch();
  return fresh ? (composeSourcesOf(fresh) ?? null) : null;
}

/** Saves a blob under `name` (the browser's download). */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The words to show for a failed preview: the API's own (a refused field's first), else the generic one. */
function previewErrorText(err: unknown, fallback: string): string {
  if (err instanceof ApiRequestError && err.kind === 'http') return err.firstFieldError() || err.message || fallback;
  return fallback;
}

/**
 * After a cut-out: the finishing editor beside the comparison. The layout view shows the picture the server
 * renders (`POST /api/jobs/{id}/compose/preview`: the download itself, scaled), asked for when the settings rest
 * for PREVIEW_DELAY_MS, one request at a time (a change aborts the one in flight: the newest settings win). Touch
 * up paints the matte (erase, restore, undo) with the mouse, a pen or a finger on the cut-out drawn in the browser;
 * the edited matte is encoded once when the layout is shown again and sent with every preview and the download.
 * Download renders the full-size picture through the free `POST /api/jobs/{id}/compose` and saves it in the chosen
 * format. The strokes are saved on the server as the job's draft as they are made (matte-draft.ts) and painted
 * again when the editor opens; leaving (in the app or closing the tab) while a save waits or failed asks first.
 */
export function PhotoEditor({ job }: { job: JobView }) {
  const { api, t } = useStore();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  // The job has its stored cut-out: the server can render previews (the browser's copies may still be loading).
  const [hasSources, setHasSources] = useState(false);
  const [settings, setSettings] = useState<PhotoSettings>(DEFAULT_PHOTO_SETTINGS);
  const [backgroundFile, setBackgroundFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('layout');
  const [brush, setBrush] = useState<BrushMode>('erase');
  const [brushSize, setBrushSize] = useState(32);
  const [editsVersion, setEditsVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // The server's preview of the layout: an object URL of its image, whether a newer one is on its way, what failed.
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [previewBusy, setPreviewBusy] = useState(false);
  const [previewError, setPreviewError] = useState<string | null>(null);
  // The edited matte as the PNG the server takes, and the edits it was encoded from (editsVersion).
  const encodedMatte = useRef<{ version: number; blob: Promise<Blob> } | null>(null);
  const edits = useRef(new MatteEdits());
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<BrushStroke | null>(null);
  const frame = useRef<number | null>(null);
  // The keyboard's brush cursor in full-size matte pixels: shown once a brush key is used, gone on blur.
  const [cursor, setCursor] = useState<Point | null>(null);
  const [keyPainting, setKeyPainting] = useState(false);
  // The draft of the strokes on the server: where its saving stands, and the saver of this job's editor.
  const [draftState, setDraftState] = useState<DraftState>('saved');
  const draft = useRef<DraftSaver | null>(null);

  useEffect(() => {
    let gone = false;
    setLoaded({ state: 'loading' });
    setHasSources(false);
    edits.current.clear();
    const saver = new DraftSaver(api, job.id, setDraftState);
    draft.current = saver;
    setDraftState('saved');
    void (async () => {
      try {
        const [sources, strokes] = await Promise.all([
          sourcesFor(
            job,
            async () =>
              (await api.call(endpoints.jobs.get, { params: { id: job.id } }, { skipErrorHandling: true })).payload ??
              null,
          ),
          loadDraft(api, job.id),
        ]);
        if (!sources) throw new Error('no compose sources');
        // With a draft the first preview waits for the matte it paints, rather than showing the picture without it.
        if (!gone && strokes.length === 0) setHasSources(true);
        const [fg, matte] = await Promise.all([loadImage(sources.foreground_url), loadImage(sources.matte_url)]);
        if (gone) return;
        const surfaces = new CutoutSurfaces(fg, matte, sources.width, sources.height);
        if (strokes.length > 0) {
          edits.current.restore(strokes);
          surfaces.repaint(strokes);
          setEditsVersion((v) => v + 1);
          setHasSources(true);
        }
        setLoaded({ state: 'ready', surfaces });
      } catch {
        if (!gone) setLoaded({ state: 'unavailable' });
      }
    })();
    return () => {
      gone = true;
      // Leaving the job or the page: what waits is sent now rather than dropped with the timer.
      saver.dispose();
      void saver.flush();
    };
  }, [job.id]);

  const unsaved = draftState !== 'saved';
  // In-app navigation with unsaved strokes asks first (and starts their save); so does closing or reloading the tab.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
  );
  useEffect(() => {
    if (blocker.state === 'blocked') void draft.current?.flush();
  }, [blocker.state]);
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      void draft.current?.flush();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  // The preview's image is let go when it is replaced and when the editor goes.
  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  const surfaces = loaded.state === 'ready' ? loaded.surfaces : null;
  const ready = photoSettingsReady(settings, backgroundFile !== null);

  /**
   * The request's form, as compose and its preview both take it: the settings' fields, the background image, and
   * the edited matte. The matte is encoded at most once per state of the edits (a full-size PNG takes a moment),
   * so moving a slider after touching up re-sends the same blob.
   */
  const composeForm = async (): Promise<FormData> => {
    const body = new FormData();
    for (const [name, value] of Object.entries(photoFields(settings))) body.append(name, value);
    if (settings.background === 'image' && backgroundFile) body.append('background_image', backgroundFile);
    if (surfaces && edits.current.edited) {
      if (encodedMatte.current?.version !== editsVersion)
        encodedMatte.current = { version: editsVersion, blob: surfaces.fullMatte(edits.current.strokes) };
      body.append('matte', await encodedMatte.current.blob, 'matte.png');
    }
    return body;
  };

  // The layout view asks the server for the picture once the settings rest; a newer change aborts the request.
  const fieldsKey = JSON.stringify(photoFields(settings));
  useEffect(() => {
    if (mode !== 'layout' || !hasSources || !ready) {
      setPreviewBusy(false);
      return;
    }
    const controller = new AbortController();
    setPreviewBusy(true);
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const body = await composeForm();
          const image = await api.image(
            endpoints.jobs.composePreview,
            { params: { id: job.id }, body },
            { signal: controller.signal, skipErrorHandling: true },
          );
          if (controller.signal.aborted) return;
          setPreviewUrl(URL.createObjectURL(image));
          setPreviewError(null);
        } catch (err) {
          if (controller.signal.aborted) return;
          setPreviewError(previewErrorText(err, t('client-tools.editor.failed')));
        }
        setPreviewBusy(false);
      })();
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [hasSources, fieldsKey, backgroundFile, mode, editsVersion, ready, job.id]);

  const draw = () => {
    const canvas = canvasRef.current;
    if (canvas && surfaces && mode === 'touchUp') drawTouchUp(canvas, surfaces);
  };
  // The touch-up view is drawn in the browser: the cut-out over the faint photo, at once after each change.
  useEffect(draw, [surfaces, mode, editsVersion]);

  /** Full-size matte pixels per CSS pixel of the touch-up canvas on screen. */
  const mattePerCss = (canvas: HTMLCanvasElement) =>
    canvas.width / canvas.getBoundingClientRect().width / surfaces!.scale;
  /** A pointer on the touch-up canvas in full-size matte pixels. */
  const matPoint = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const perCss = mattePerCss(e.currentTarget);
    return { x: (e.clientX - rect.left) * perCss, y: (e.clientY - rect.top) * perCss, perCss };
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (mode !== 'touchUp' || !surfaces || busy) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const { x, y, perCss } = matPoint(e);
    // The size slider is in screen pixels: the same brush on screen whatever the photo's size.
    drawing.current = edits.current.begin(brush, brushSize * perCss, { x, y });
    surfaces.paintSegment(drawing.current, 0);
    draw();
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const stroke = drawing.current;
    if (!stroke || !surfaces) return;
    const { x, y } = matPoint(e);
    edits.current.extend({ x, y });
    surfaces.paintSegment(stroke, stroke.points.length - 1);
    // One redraw per frame however fast the pointer reports.
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      draw();
    });
  };
  const onPointerEnd = () => {
    setKeyPainting(false);
    if (!drawing.current) return;
    drawing.current = null;
    edits.current.end();
    setEditsVersion((v) => v + 1);
    draft.current?.schedule(edits.current.strokes);
  };
  // The same brush from the keyboard (keyboard-brush.ts says which key does what).
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (mode !== 'touchUp' || !surfaces || busy) return;
    const action = brushKeyAction(e, brushSize);
    if (!action) return;
    e.preventDefault(); // Space and the arrows would scroll the page
    const perCss = mattePerCss(e.currentTarget);
    const at = cursor ?? { x: surfaces.width / 2, y: surfaces.height / 2 };
    setCursor(at);
    if (action.kind === 'move') {
      const next = {
        x: Math.min(surfaces.width, Math.max(0, at.x + action.dx * perCss)),
        y: Math.min(surfaces.height, Math.max(0, at.y + action.dy * perCss)),
      };
      setCursor(next);
      const stroke = drawing.current;
      if (stroke && edits.current.extend(next)) {
        surfaces.paintSegment(stroke, stroke.points.length - 1);
        draw();
      }
    } else if (action.kind === 'togglePaint' && !drawing.current) {
      drawing.current = edits.current.begin(brush, brushSize * perCss, at);
      surfaces.paintSegment(drawing.current, 0);
      setKeyPainting(true);
      draw();
    } else if (action.kind === 'togglePaint' || action.kind === 'lift') {
      onPointerEnd();
    } else if (action.kind === 'resize') {
      setBrushSize((size) => Math.min(BRUSH_MAX, Math.max(BRUSH_MIN, size + action.delta)));
    } else {
      onPointerEnd();
      undo();
    }
  };
  const onBlur = () => {
    onPointerEnd();
    setCursor(null);
  };
  const undo = () => {
    if (!surfaces || !edits.current.undo()) return;
    surfaces.repaint(edits.current.strokes);
    setEditsVersion((v) => v + 1);
    draft.current?.schedule(edits.current.strokes);
  };
  const resetEdits = () => {
    if (!surfaces) return;
    edits.current.clear();
    surfaces.repaint([]);
    setEditsVersion((v) => v + 1);
    draft.current?.discard();
  };

  const download = async () => {
    if (!surfaces || !ready) return;
    setBusy(true);
    setFailed(false);
    try {
      const body = await composeForm();
      const reply = await api.call(endpoints.jobs.compose, { params: { id: job.id }, body });
      const made = reply.payload;
      const file = await fetch(made.url);
      if (!file.ok) throw new Error(`download answered ${file.status}`);
      saveBlob(await file.blob(), resultDownloadName(job, 0, made.format));
    } catch {
      // A refused option was shown by the API's error toast; anything else is said here.
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  if (loaded.state === 'unavailable')
    return (
      <p className="photo-editor__note" data-testid="photo-editor-unavailable">
        {t('client-tools.editor.unavailable')}
      </p>
    );

  const touchUp = mode === 'touchUp';
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
              previewUrl ? (
                <img
                  // The checkerboard sits behind the picture itself: it shows where the result is transparent.
                  className={`photo-editor__canvas checkerboard${previewBusy ? ' photo-editor__canvas--busy' : ''}`}
                  src={previewUrl}
                  alt={t('client-tools.editor.preview')}
                  aria-busy={previewBusy}
                  data-testid="photo-preview"
                  data-mode="layout"
                  data-busy={previewBusy}
                />
              ) : previewError ? null : (
                <Spinner label={t('client-tools.editor.loading')} />
              )
            ) : surfaces ? (
              <>
                <canvas
                  ref={canvasRef}
                  // The checkerboard sits on the picture itself: it shows where the result is transparent.
                  className="photo-editor__canvas checkerboard photo-editor__canvas--brush"
                  role="img"
                  aria-label={t('client-tools.editor.touchUpCanvas')}
                  data-testid="photo-preview"
                  data-mode={mode}
                  onPointerDown={onPointerDown}
                  onPointerMove={onPointerMove}
                  onPointerUp={onPointerEnd}
                  onPointerCancel={onPointerEnd}
                  tabIndex={0}
                  aria-describedby="photo-editor-keys"
                  onKeyDown={onKeyDown}
                  onBlur={onBlur}
                />
                {cursor && canvasRef.current ? (
                  <BrushCursor canvas={canvasRef.current} at={cursor} size={brushSize} scale={surfaces.scale} />
                ) : null}
              </>
            ) : (
              <Spinner label={t('client-tools.editor.loading')} />
            )}
          </div>
          {unsaved || (touchUp && edits.current.edited) ? (
            <p
              className={`photo-editor__note${draftState === 'failed' ? ' notice notice--error' : ''}`}
              role="status"
              data-testid="draft-state"
              data-state={draftState}
            >
              {t(
                draftState === 'saved'
                  ? 'client-tools.editor.draftSaved'
                  : draftState === 'failed'
                    ? 'client-tools.editor.draftFailed'
                    : 'client-tools.editor.draftSaving',
              )}{' '}
              {draftState === 'failed' ? (
                <Button variant="ghost" onClick={() => void draft.current?.flush()}>
                  {t('client-tools.editor.draftRetry')}
                </Button>
              ) : null}
            </p>
          ) : null}
          {!touchUp && previewError ? (
            <p className="notice notice--error" role="alert" data-testid="preview-error">
              {previewError}
            </p>
          ) : null}
          {touchUp ? (
            <div className="photo-editor__brush" data-testid="brush-tools">
              <p className="photo-editor__note">{t('client-tools.editor.touchUpHint')}</p>
              <p className="photo-editor__note" id="photo-editor-keys">
                {t('client-tools.editor.keyboardHint')}
              </p>
              <p className="visually-hidden" aria-live="polite" data-testid="brush-key-state">
                {cursor ? t(keyPainting ? 'client-tools.editor.keyPainting' : 'client-tools.editor.keyLifted') : ''}
              </p>
              <div className="segmented" role="group" aria-label={t('client-tools.editor.brush')}>
                {(['erase', 'restore'] as const).map((m) => (
                  <button key={m} type="button" aria-pressed={brush === m} onClick={() => setBrush(m)}>
                    {t(`client-tools.editor.${m}`)}
                  </button>
                ))}
              </div>
              <Slider
                label={t('client-tools.editor.brushSize')}
                min={BRUSH_MIN}
                max={BRUSH_MAX}
                step={2}
                value={brushSize}
                output={`${brushSize} px`}
                valueText={`${brushSize} px`}
                onValueChange={setBrushSize}
              />
              <div className="photo-editor__actions">
                <Button
                  variant="secondary"
                  icon={<Undo2 aria-hidden="true" />}
                  onClick={undo}
                  disabled={!edits.current.canUndo}
                >
                  {t('client-tools.editor.undo')}
                </Button>
                <Button variant="ghost" onClick={resetEdits} disabled={!edits.current.edited}>
                  {t('client-tools.editor.resetEdits')}
                </Button>
              </div>
            </div>
          ) : null}
        </div>
        <div className="photo-editor__controls">
          <PhotoSettingsForm
            settings={settings}
            onChange={setSettings}
            backgroundImage={backgroundFile}
            onBackgroundImage={setBackgroundFile}
          />
          <Button
            variant="primary"
            block
            busy={busy}
            busyText={t('client-tools.editor.downloading')}
            disabled={!surfaces || !ready}
            onClick={() => void download()}
            icon={<Download aria-hidden="true" />}
            data-testid="compose-download"
          >
            {t('client-tools.editor.download')}
          </Button>
          <p className="photo-editor__note">{t('client-tools.editor.free')}</p>
          {failed ? (
            <p className="notice notice--error" role="alert">
              {t('client-tools.editor.failed')}
            </p>
          ) : null}
        </div>
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

/**
 * The keyboard's brush: a ring over the touch-up canvas where the next dab goes, as wide as the brush. An element
 * over the canvas rather than paint on it, so the canvas keeps showing only the cut-out.
 */
function BrushCursor({
  canvas,
  at,
  size,
  scale,
}: {
  canvas: HTMLCanvasElement;
  at: Point;
  size: number;
  scale: number;
}) {
  const cssPerMatte = (canvas.getBoundingClientRect().width * scale) / canvas.width;
  return (
    <span
      className="photo-editor__brush-cursor"
      aria-hidden="true"
      data-testid="brush-cursor"
      style={{
        left: canvas.offsetLeft + at.x * cssPerMatte - size / 2,
        top: canvas.offsetTop + at.y * cssPerMatte - size / 2,
        width: size,
        height: size,
      }}
    />
  );
}
