import { brushKeyAction, BRUSH_SIZE_STEP, type BrushKey } from './keyboard-brush';

const key = (k: string, mods: Partial<BrushKey> = {}): BrushKey => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('the touch-up brush by keyboard', () => {
  it('moves a quarter of the brush per arrow press and the whole brush with Shift', () => {
    expect(brushKeyAction(key('ArrowRight'), 32)).toEqual({ kind: 'move', dx: 8, dy: 0 });
    expect(brushKeyAction(key('ArrowUp'), 32)).toEqual({ kind: 'move', dx: 0, dy: -8 });
    expect(brushKeyAction(key('ArrowLeft', { shiftKey: true }), 32)).toEqual({ kind: 'move', dx: -32, dy: 0 });
    expect(brushKeyAction(key('ArrowDown', { shiftKey: true }), 32)).toEqual({ kind: 'move', dx: 0, dy: 32 });
    // The smallest brush still moves.
    expect(brushKeyAction(key('ArrowDown'), 2)).toEqual({ kind: 'move', dx: 0, dy: 1 });
  });

  it('puts the brush down and lifts it with Space or Enter; Escape only lifts it', () => {
    expect(brushKeyAction(key(' '), 32)).toEqual({ kind: 'togglePaint' });
    expect(brushKeyAction(key('Enter'), 32)).toEqual({ kind: 'togglePaint' });
    expect(brushKeyAction(key('Escape'), 32)).toEqual({ kind: 'lift' });
  });

  it('resizes with [ and ], undoes with Ctrl+Z or Cmd+Z and redoes with Ctrl+Shift+Z or Ctrl+Y', () => {
    expect(brushKeyAction(key('['), 32)).toEqual({ kind: 'resize', delta: -BRUSH_SIZE_STEP });
    expect(brushKeyAction(key(']'), 32)).toEqual({ kind: 'resize', delta: BRUSH_SIZE_STEP });
    expect(brushKeyAction(key('z', { ctrlKey: true }), 32)).toEqual({ kind: 'undo' });
    expect(brushKeyAction(key('Z', { metaKey: true }), 32)).toEqual({ kind: 'undo' });
    expect(brushKeyAction(key('Z', { ctrlKey: true, shiftKey: true }), 32)).toEqual({ kind: 'redo' });
    expect(brushKeyAction(key('y', { metaKey: true }), 32)).toEqual({ kind: 'redo' });
  });

  it('leaves other keys and shortcuts to the browser and the screen reader', () => {
    for (const k of [key('Tab'), key('a'), key('z'), key('ArrowLeft', { ctrlKey: true }), key(' ', { altKey: true })])
      expect(brushKeyAction(k, 32)).toBeNull();
    expect(brushKeyAction(key('y', { ctrlKey: true, altKey: true }), 32)).toBeNull();
  });
});
