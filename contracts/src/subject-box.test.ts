import { cutEdgesOf, labelGridParts, NO_CUT_EDGES, SUBJECT_ALPHA_THRESHOLD, subjectBoxOf } from './subject-box';

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

describe('cutEdgesOf', () => {
  const edges = (m: Uint8Array, w: number, h: number) => cutEdgesOf(m, w, h, subjectBoxOf(m, w, h));

  it('finds each side the photo frame cuts through solid subject', () => {
    // A person cut at the waist: the bottom edge runs through 100 of the box's 160 px width.
    const waist = rectMatte(300, 200, [
      [70, 20, 160, 100, 255],
      [100, 120, 100, 80, 255],
    ]);
    expect(edges(waist, 300, 200)).toEqual({ ...NO_CUT_EDGES, bottom: true });
    // Cut on the left and top at once (a corner of a larger object).
    expect(edges(rectMatte(300, 200, [[0, 0, 120, 90, 255]]), 300, 200)).toEqual({
      ...NO_CUT_EDGES,
      top: true,
      left: true,
    });
    // Right: a narrow flat of 5% of the box height counts (a clipped tyre's flat on a 200 px tall box is 10 px).
    const tyre = rectMatte(400, 200, [
      [100, 0, 280, 200, 255],
      [380, 95, 20, 10, 255],
    ]);
    expect(edges(tyre, 400, 200)).toEqual({ ...NO_CUT_EDGES, top: true, bottom: true, right: true });
  });

  it('ignores a few grazing pixels, a soft fringe, specks outside the box and a subject clear of the frame', () => {
    // A strand 3 px high reaching the left edge from a 100 px tall body: under 4 px and under 5%.
    const strand = rectMatte(300, 200, [
      [100, 50, 100, 100, 255],
      [0, 100, 100, 3, 255],
    ]);
    expect(edges(strand, 300, 200)).toEqual(NO_CUT_EDGES);
    // A half-transparent fringe along the bottom edge is the outline reaching the frame, not a cut.
    const fringe = rectMatte(300, 200, [
      [100, 50, 100, 149, 255],
      [100, 199, 100, 1, 100],
    ]);
    expect(edges(fringe, 300, 200)).toEqual(NO_CUT_EDGES);
    // A far speck on the bottom edge (left out of the box) does not make the subject cut.
    const w = 1000;
    const speck = rectMatte(w, w, [
      [300, 100, 400, 400, 255],
      [800, 996, 4, 4, 255],
    ]);
    expect(subjectBoxOf(speck, w, w)).toEqual({ left: 300, top: 100, width: 400, height: 400 });
    expect(edges(speck, w, w)).toEqual(NO_CUT_EDGES);
    expect(cutEdgesOf(new Uint8Array(100), 10, 10, null)).toEqual(NO_CUT_EDGES);
  });

  it('reads the alpha from the first of several channels (a canvas RGBA)', () => {
    const m = rectMatte(40, 30, [[0, 5, 20, 20, 255]]);
    const rgba = new Uint8Array(40 * 30 * 4);
    for (let i = 0; i < m.length; i++) rgba[i * 4] = m[i]!;
    expect(cutEdgesOf(rgba, 40, 30, subjectBoxOf(rgba, 40, 30, 4), 4)).toEqual({ ...NO_CUT_EDGES, left: true });
  });
});
