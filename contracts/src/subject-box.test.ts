import { labelGridParts, SUBJECT_ALPHA_THRESHOLD, subjectBoxOf } from './subject-box';

type Rect = [left: number, top: number, width: number, height: number, alpha: number];

function rectMatte(width: number, height: number, rects: Rect[]): Uint8Array {
  const m = new Uint8Array(width * height);
  for (const [l, t, w, h, v] of rects) for (let y = t; y < t + h; y++) m.fill(v, y * width + l, y * width + l + w);
  return m;
}

describe('subjectBoxOf', () => {
  it('is the box of the alpha at or above the threshold, to the pixel, ignoring faint haze', () => {
    const m = rectMatte(300, 200, [
      [0, 0, 300, 200, SUBJECT_ALPHA_THRESHOLD - 1],
      [40, 30, 100, 120, 255],
      [139, 150, 1, 1, SUBJECT_ALPHA_THRESHOLD],
    ]);
    expect(subjectBoxOf(m, 300, 200)).toEqual({ left: 40, top: 30, width: 100, height: 121 });
  });

  it('is null when nothing reaches the threshold', () => {
    expect(subjectBoxOf(new Uint8Array(100 * 50).fill(SUBJECT_ALPHA_THRESHOLD - 1), 100, 50)).toBeNull();
  });

  it('keeps a tiny part joined to the subject by a line one pixel wide, straight or diagonal', () => {
    // A big matte (cells of 16 px): a body, a strap one pixel wide hanging 400 px below it to a small wheel, and a
    // one-pixel diagonal (8-connected only) out to a mirror. Wheel and mirror are far under 1% of the body.
    const [w, h] = [4000, 3000];
    const m = rectMatte(w, h, [
      [1000, 800, 1500, 1200, 255],
      [1703, 2000, 1, 400, 200],
      [1690, 2400, 30, 30, 255],
    ]);
    for (let i = 1; i <= 300; i++) m[(800 - i) * w + 2500 + i] = 255;
    for (let y = 490; y < 500; y++) m.fill(255, y * w + 2795, y * w + 2805);
    expect(subjectBoxOf(m, w, h)).toEqual({ left: 1000, top: 490, width: 1805, height: 1940 });
  });

  it('drops a speck only when it is both tiny and far from the subject', () => {
    const [w, h] = [4000, 3000];
    const subject: Rect = [1000, 800, 1500, 1700, 255];
    // Tiny (36 px) and far (900 px away): dropped; a corner speck too.
    const far = rectMatte(w, h, [subject, [100, 100, 6, 6, 255], [3997, 2997, 3, 3, 180]]);
    expect(subjectBoxOf(far, w, h)).toEqual({ left: 1000, top: 800, width: 1500, height: 1700 });
    // Tiny but near (40 px from the body, inside the reach of 2% of 4000 px): kept, as a detached toe would be.
    const near = rectMatte(w, h, [subject, [2540, 1000, 6, 6, 255]]);
    expect(subjectBoxOf(near, w, h)).toEqual({ left: 1000, top: 800, width: 1546, height: 1700 });
    // Far but of real size (a second product): kept.
    const pair = rectMatte(w, h, [subject, [3000, 2000, 400, 300, 255]]);
    expect(subjectBoxOf(pair, w, h)).toEqual({ left: 1000, top: 800, width: 2400, height: 1700 });
  });

  it('drops a far speck on a small matte too (cells of one pixel), and keeps one within reach', () => {
    const [w, h] = [250, 200];
    const subject: Rect = [60, 60, 120, 90, 255];
    expect(subjectBoxOf(rectMatte(w, h, [subject, [3, 3, 2, 2, 255]]), w, h)).toEqual({
      left: 60,
      top: 60,
      width: 120,
      height: 90,
    });
    // 4 px from the body; the reach is 2% of 250 px, 5 px: kept.
    expect(subjectBoxOf(rectMatte(w, h, [subject, [184, 100, 2, 2, 255]]), w, h)).toEqual({
      left: 60,
      top: 60,
      width: 126,
      height: 90,
    });
  });

  it('reads the first channel of RGBA pixels (a canvas of a greyscale matte) and unaligned bytes as a bare matte', () => {
    const [w, h] = [700, 500];
    const m = rectMatte(w, h, [
      [200, 100, 300, 250, 255],
      [350, 350, 1, 100, 40],
      [10, 480, 3, 3, 255],
    ]);
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let i = 0; i < w * h; i++) {
      rgba.fill(m[i]!, i * 4, i * 4 + 3);
      rgba[i * 4 + 3] = 255;
    }
    expect(subjectBoxOf(rgba, w, h, 4)).toEqual(subjectBoxOf(m, w, h));
    // Bytes not aligned for the four-at-a-time skip of background are read one by one, to the same box.
    const unaligned = new Uint8Array(new ArrayBuffer(w * h + 1), 1);
    unaligned.set(m);
    expect(subjectBoxOf(unaligned, w, h)).toEqual(subjectBoxOf(m, w, h));
    expect(subjectBoxOf(m, w, h)).toEqual({ left: 200, top: 100, width: 300, height: 350 });
  });

  it('labels 8-connected parts of a grid, never across a row end', () => {
    // prettier-ignore
    const grid = Uint8Array.from([
      9, 0, 0, 0,
      0, 9, 0, 5,
      0, 0, 0, 0,
      5, 0, 1, 1,
    ]);
    const { labels, weights } = labelGridParts(grid, 4, 4);
    expect(weights).toEqual([18, 5, 5, 2]);
    expect(Array.from(labels)).toEqual([1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 4, 4]);
  });
});
