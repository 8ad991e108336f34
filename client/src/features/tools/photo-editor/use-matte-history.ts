import { useRef, useState } from 'react';
import type { ApiClient } from '../../../lib/api/api-client';
import { DraftSaver, type DraftState } from './matte-draft';
import { MatteEdits, type BrushStroke } from './matte-edits';
import type { CutoutSurfaces } from './preview-canvas';

/** The touch-up's edits and their draft on the server, as the editor's parts share them. */
export interface MatteHistory {
  /** The strokes so far (a mutable object: read it while rendering, after `version` has moved). */
  edits: MatteEdits;
  /** Moves on with every change to the strokes: what depends on them (the preview, the matte PNG) follows it. */
  version: number;
  /** Where saving the draft stands. */
  draftState: DraftState;
  /** A new job: forgets the strokes and starts saving this job's draft; the saver is the caller's to dispose. */
  start(api: ApiClient, jobId: string): DraftSaver;
  /** Puts back the strokes of a saved draft and paints them. */
  restore(strokes: BrushStroke[], surfaces: CutoutSurfaces): void;
  /** A stroke has ended: the strokes changed, and the draft saves them after a pause. */
  strokeEnded(): void;
  undo(surfaces: CutoutSurfaces | null): void;
  /** Drops every stroke (and the saved draft). */
  reset(surfaces: CutoutSurfaces | null): void;
  /** Sends the draft now (leaving, or the retry button). */
  flush(): void;
}

/**
 * The strokes of the touch-up and the draft that keeps them on the server. The strokes live in a ref (they change
 * at pointer speed); `version` is the state a render follows.
 */
export function useMatteHistory(): MatteHistory {
  const edits = useRef(new MatteEdits());
  const [version, setVersion] = useState(0);
  const [draftState, setDraftState] = useState<DraftState>('saved');
  const draft = useRef<DraftSaver | null>(null);
  const changed = () => setVersion((v) => v + 1);
  return {
    edits: edits.current,
    version,
    draftState,
    start(api, jobId) {
      edits.current.clear();
      const saver = new DraftSaver(api, jobId, setDraftState);
      draft.current = saver;
      setDraftState('saved');
      return saver;
    },
    restore(strokes, surfaces) {
      edits.current.restore(strokes);
      surfaces.repaint(strokes);
      changed();
    },
    strokeEnded() {
      edits.current.end();
      changed();
      draft.current?.schedule(edits.current.strokes);
    },
    undo(surfaces) {
      if (!surfaces || !edits.current.undo()) return;
      surfaces.repaint(edits.current.strokes);
      changed();
      draft.current?.schedule(edits.current.strokes);
    },
    reset(surfaces) {
      if (!surfaces) return;
      edits.current.clear();
      surfaces.repaint([]);
      changed();
      draft.current?.discard();
    },
    flush() {
      void draft.current?.flush();
    },
  };
}
