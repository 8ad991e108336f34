import { Undo2 } from 'lucide-react';
import { Button, Slider } from '../../../components';
import { useT } from '../../../stores';
import { BRUSH_MAX, BRUSH_MIN, type useBrush } from './use-brush';
import type { MatteHistory } from './use-matte-history';

/** The touch-up's tools under the canvas: the hints, erase or restore, the brush size, undo and reset. */
export function BrushPanel({
  brush,
  history,
  onUndo,
  onReset,
}: {
  brush: ReturnType<typeof useBrush>;
  history: MatteHistory;
  onUndo(): void;
  onReset(): void;
}) {
  const t = useT();
  const { brushSize } = brush;
  return (
    <div className="photo-editor__brush" data-testid="brush-tools">
      <p className="photo-editor__note">{t('client-tools.editor.touchUpHint')}</p>
      <p className="photo-editor__note" id="photo-editor-keys">
        {t('client-tools.editor.keyboardHint')}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="brush-key-state">
        {brush.cursor ? t(brush.keyPainting ? 'client-tools.editor.keyPainting' : 'client-tools.editor.keyLifted') : ''}
      </p>
      <div className="segmented" role="group" aria-label={t('client-tools.editor.brush')}>
        {(['erase', 'restore'] as const).map((m) => (
          <button key={m} type="button" aria-pressed={brush.brush === m} onClick={() => brush.setBrush(m)}>
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
        onValueChange={brush.setBrushSize}
      />
      <div className="photo-editor__actions">
        <Button
          variant="secondary"
          icon={<Undo2 aria-hidden="true" />}
          onClick={onUndo}
          disabled={!history.edits.canUndo}
        >
          {t('client-tools.editor.undo')}
        </Button>
        <Button variant="ghost" onClick={onReset} disabled={!history.edits.edited}>
          {t('client-tools.editor.resetEdits')}
        </Button>
      </div>
    </div>
  );
}
