import fs from 'node:fs';
import sharp from 'sharp';
import { fromProjectRoot } from '../root';
import { findSubjectBox, labelParts, SUBJECT_ALPHA_THRESHOLD } from './subject-box';

function rectMatte(width: number, height: number, rects: [number, number, number, number, number][]): Buffer {
  const m = Buffer.alloc(width * height);
  for (const [l, t, w, h, v] of rects) for (let y = t; y < t + h; y++) m.fill(v, y * width + l, y * width + l + w);
  return m;
}

describe('findSubjectBox', () => {
  it('finds the box of the alpha above the threshold, to the pixel, ignoring faint haze', async () => {
    const data = rectMatte(300, 200, [
      [0, 0, 300, 200, SUBJECT_ALPHA_THRESHOLD - 1],
      [40, 30, 100, 120, 255],
      [139, 150, 1, 1, 200],
    ]);
    expect(await findSubjectBox({ data, width: 300, height: 200 })).toEqual({
      left: 40,
      top: 30,
      width: 100,
      height: 121,
    });
  });

  it('ignores specks away from the subject but keeps a second part of real size, on big mattes too', async () => {
    const w = 4000;
    const h = 3000;
    const specks = rectMatte(w, h, [
      [1000, 800, 1500, 1700, 255],
      [100, 100, 6, 6, 255],
      [3900, 2900, 3, 3, 180],
    ]);
    expect(await findSubjectBox({ data: specks, width: w, height: h })).toEqual({
      left: 1000,
      top: 800,
      width: 1500,
      height: 1700,
    });
    const pair = rectMatte(w, h, [
      [1000, 800, 1500, 1700, 255],
      [3000, 2000, 400, 300, 255],
    ]);
    expect(await findSubjectBox({ data: pair, width: w, height: h })).toEqual({
      left: 1000,
      top: 800,
      width: 2400,
      height: 1700,
    });
  });

  it('labels 8-connected parts of a grid, never across a row end', () => {
    // prettier-ignore
    const grid = Uint8Array.from([
      9, 0, 0, 0,
      0, 9, 0, 5,
      0, 0, 0, 0,
      5, 0, 1, 1,
    ]);
    const { labels, weights } = labelParts(grid, 4, 4);
    expect(weights).toEqual([18, 5, 5, 2]);
    expect(Array.from(labels)).toEqual([1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 4, 4]);
  });

  it('is null for an empty matte', async () => {
    expect(await findSubjectBox({ data: Buffer.alloc(100 * 50, 10), width: 100, height: 50 })).toBeNull();
  });

  it('matches a plain scan of the real ISNet matte of the coffee photo', async () => {
    const png = fs.readFileSync(fromProjectRoot('worker/src/test-support/fixtures/coffee-300-mask.png'));
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++)
        if (data[y * info.width + x]! >= SUBJECT_ALPHA_THRESHOLD) {
          x0 = Math.min(x0, x);
          y0 = Math.min(y0, y);
          x1 = Math.max(x1, x);
          y1 = Math.max(y1, y);
        }
    const box = await findSubjectBox({ data, width: info.width, height: info.height });
    expect(box).toEqual({ left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
  });
});
