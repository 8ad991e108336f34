import { useEffect, useRef, useState } from 'react';
import { Redo2, Undo2 } from 'lucide-react';
import { Button, Slider, Spinner } from '../../../components';
import { useT } from '../../../stores';
import { loadImage } from '../photo-editor/preview-canvas';
import { BrushCursor } from '../photo-editor/touch-up-canvas';
import { BRUSH_MAX, BRUSH_MIN, useBrush } from '../photo-editor/use-brush';
import '../photo-editor/photo-editor.css';
import { EraseSurfaces } from './erase-surfaces';
import type { EraseStrokes } from './use-erase-strokes';

/**
 * The photo as a painting surface, loaded from `url` (the chosen file's object URL): null while it loads or when
 * the browser cannot show it. A new photo forgets the strokes of the last one.
 */
export function useEraseSurfaces(url: string | null, strokes: EraseStrokes): EraseSurfaces | null {
  const [surfaces, setSurfaces] = useState<EraseSurfaces | null>(null);
  useEffect(() => {
    setSurfaces(null);
    strokes.clear(null);
    if (!url) return;
    let live = true;
    loadImage(url).then(
      (img) => {
        if (live) setSurfaces(new EraseSurfaces(img, img.naturalWidth, img.naturalHeight));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [url]);
  return surfaces;
}

/**
 * The painting: the photo with the painted area tinted over it, painted with the editor's brush (mouse, pen,
 * finger or keyboard: use-brush.ts), and under it the brush size, Undo, Redo and Clear.
 */
export function ErasePainter({
  surfaces,
  strokes,
  busy,
}: {
  surfaces: EraseSurfaces | null;
  strokes: EraseStrokes;
  busy: boolean;
}) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const brush = useBrush({ canvasRef, surfaces, touchUp: true, busy, history: strokes });
  const { edits } = strokes;
  return (
    <div className="erase-painter" data-testid="erase-painter">
      <div className="photo-editor__frame">
        {surfaces ? (
          <>
            <canvas
              ref={canvasRef}
              className="photo-editor__canvas photo-editor__canvas--brush erase-painter__canvas"
              // As wide as the frame allows (a small photo too: painting needs room), no taller than the editor's.
              style={{ maxWidth: `calc(min(60vh, 520px) * ${surfaces.width / surfaces.height})` }}
              role="img"
              aria-label={t('client-tools.erase.canvas')}
              aria-describedby="erase-keys"
              data-testid="erase-canvas"
              data-strokes={edits.strokes.length}
              tabIndex={0}
              {...brush.handlers}
            />
            {brush.cursor && canvasRef.current ? (
              <BrushCursor canvas={canvasRef.current} at={brush.cursor} size={brush.brushSize} scale={surfaces.scale} />
            ) : null}
          </>
        ) : (
          <Spinner label={t('client-tools.erase.loading')} />
        )}
      </div>
      <p className="photo-editor__note">{t('client-tools.erase.hint')}</p>
      <p className="photo-editor__note" id="erase-keys">
        {t('client-tools.erase.keys')}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="brush-key-state">
        {brush.cursor ? t(brush.keyPainting ? 'client-tools.editor.keyPainting' : 'client-tools.editor.keyLifted') : ''}
      </p>
      <Slider
        label={t('client-tools.editor.brushSize')}
        min={BRUSH_MIN}
        max={BRUSH_MAX}
        step={2}
        value={brush.brushSize}
        output={`${brush.brushSize} px`}
        valueText={`${brush.brushSize} px`}
        onValueChange={brush.setBrushSize}
        disabled={busy}
      />
      <div className="photo-editor__actions">
        <Button
          variant="secondary"
          icon={<Undo2 aria-hidden="true" />}
          onClick={() => strokes.undo(surfaces)}
          disabled={busy || !edits.canUndo}
        >
          {t('client-tools.editor.undo')}
        </Button>
        <Button
          variant="secondary"
          icon={<Redo2 aria-hidden="true" />}
          onClick={() => strokes.redo(surfaces)}
          disabled={busy || !edits.canRedo}
        >
          {t('client-tools.erase.redo')}
        </Button>
        <Button variant="ghost" onClick={() => strokes.clear(surfaces)} disabled={busy || !edits.edited}>
          {t('client-tools.erase.clear')}
        </Button>
      </div>
    </div>
  );
}
