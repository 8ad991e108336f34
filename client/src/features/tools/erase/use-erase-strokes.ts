import { useRef, useState } from 'react';
import { MatteEdits } from '../photo-editor/matte-edits';
import type { BrushHistory } from '../photo-editor/use-brush';
import type { EraseSurfaces } from './erase-surfaces';

/** The erase page's strokes, with undo, redo and clear (nothing is saved: a painting belongs to one run). */
export interface EraseStrokes extends BrushHistory<EraseSurfaces> {
  redo(surfaces: EraseSurfaces | null): void;
  /** Drops every stroke. */
  clear(surfaces: EraseSurfaces | null): void;
}

/**
 * The strokes live in a ref (they change at pointer speed) in the editor's MatteEdits; `version` is the state a
 * render follows. Every change repaints the surfaces from the strokes, so what is shown is what is sent.
 */
export function useEraseStrokes(): EraseStrokes {
  const edits = useRef(new MatteEdits());
  const [version, setVersion] = useState(0);
  const changed = (surfaces: EraseSurfaces | null) => {
    surfaces?.repaint(edits.current.strokes);
    setVersion((v) => v + 1);
  };
  return {
    edits: edits.current,
    version,
    strokeEnded() {
      edits.current.end();
      setVersion((v) => v + 1);
    },
    undo(surfaces) {
      if (edits.current.undo()) changed(surfaces);
    },
    redo(surfaces) {
      if (edits.current.redo()) changed(surfaces);
    },
    clear(surfaces) {
      edits.current.clear();
      changed(surfaces);
    },
  };
}
