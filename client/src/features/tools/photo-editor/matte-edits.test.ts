import { MatteEdits, paintStroke, type StrokeContext } from './matte-edits';

/** A 2D context that records what is painted. */
function recorder() {
  const calls: string[] = [];
  const ctx = {
    strokeStyle: '',
    fillStyle: '',
    lineWidth: 0,
    lineCap: 'butt',
    lineJoin: 'miter',
    save: () => calls.push('save'),
    restore: () => calls.push('restore'),
    beginPath: () => calls.push('begin'),
    moveTo: (x: number, y: number) => calls.push(`move ${x},${y}`),
    lineTo: (x: number, y: number) => calls.push(`line ${x},${y}`),
    arc: (x: number, y: number, r: number) => calls.push(`arc ${x},${y} r${r}`),
    stroke: () => calls.push(`stroke ${ctx.strokeStyle as string} w${ctx.lineWidth}`),
    fill: () => calls.push(`fill ${ctx.fillStyle as string}`),
  };
  return { ctx: ctx as unknown as StrokeContext, calls };
}

describe('touch-up brush edits', () => {
  it('keeps each finished stroke as one undo step, newest last', () => {
    const edits = new MatteEdits();
    expect(edits.canUndo).toBe(false);
    expect(edits.edited).toBe(false);
    edits.begin('erase', 20, { x: 1, y: 1 });
    expect(edits.extend({ x: 5, y: 1 })).toEqual([
      { x: 1, y: 1 },
      { x: 5, y: 1 },
    ]);
    // While a stroke is being drawn it is on the matte but cannot be undone yet.
    expect(edits.edited).toBe(true);
    expect(edits.canUndo).toBe(false);
    edits.end();
    edits.begin('restore', 8, { x: 9, y: 9 });
    edits.end();
    expect(edits.strokes.map((s) => [s.mode, s.size, s.points.length])).toEqual([
      ['erase', 20, 2],
      ['restore', 8, 1],
    ]);
    expect(edits.undo()).toBe(true);
    expect(edits.strokes.map((s) => s.mode)).toEqual(['erase']);
    expect(edits.undo()).toBe(true);
    expect(edits.undo()).toBe(false);
    expect(edits.edited).toBe(false);
  });

  it('redoes what undo took back, newest first, until a new stroke or a clear forgets it', () => {
    const edits = new MatteEdits();
    for (const size of [10, 20, 30]) {
      edits.begin('erase', size, { x: size, y: 1 });
      edits.end();
    }
    expect(edits.canRedo).toBe(false);
    edits.undo();
    edits.undo();
    expect(edits.strokes.map((s) => s.size)).toEqual([10]);
    expect(edits.redo()).toBe(true);
    expect(edits.strokes.map((s) => s.size)).toEqual([10, 20]);
    // A new stroke: the one still undone (30) is gone for good.
    edits.begin('erase', 40, { x: 4, y: 4 });
    expect(edits.canRedo).toBe(false);
    edits.end();
    expect(edits.redo()).toBe(false);
    expect(edits.strokes.map((s) => s.size)).toEqual([10, 20, 40]);
    edits.undo();
    edits.clear();
    expect(edits.redo()).toBe(false);
    expect(edits.edited).toBe(false);
  });

  it('ignores points without a stroke and clears back to the stored matte', () => {
    const edits = new MatteEdits();
    expect(edits.extend({ x: 1, y: 1 })).toBeNull();
    edits.end();
    expect(edits.strokes).toHaveLength(0);
    edits.begin('erase', 0, { x: 0, y: 0 });
    expect(edits.strokes[0]!.size).toBe(1);
    edits.end();
    edits.clear();
    expect(edits.strokes).toHaveLength(0);
    expect(edits.canUndo).toBe(false);
  });

  it('paints erase black and restore white, a dot for a tap and round lines for a drag, at the given scale', () => {
    const tap = recorder();
    paintStroke(tap.ctx, { mode: 'restore', size: 10, points: [{ x: 4, y: 6 }] }, 0.5);
    expect(tap.calls).toEqual(['save', 'begin', 'arc 2,3 r2.5', 'fill #ffffff', 'restore']);
    const drag = recorder();
    const stroke = {
      mode: 'erase' as const,
      size: 10,
      points: [
        { x: 0, y: 0 },
        { x: 10, y: 0 },
        { x: 10, y: 20 },
      ],
    };
    paintStroke(drag.ctx, stroke, 2);
    expect(drag.calls).toEqual([
      'save',
      'begin',
      'move 0,0',
      'line 20,0',
      'line 20,40',
      'stroke #000000 w20',
      'restore',
    ]);
    // Only the newest segment while the pointer moves.
    const segment = recorder();
    paintStroke(segment.ctx, stroke, 1, 1);
    expect(segment.calls).toEqual(['save', 'begin', 'move 10,0', 'line 10,20', 'stroke #000000 w10', 'restore']);
  });
});
