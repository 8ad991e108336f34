import fs from 'node:fs';
import sharp from 'sharp';
import { fromProjectRoot } from '../root';
import { findSubjectBox, SUBJECT_ALPHA_THRESHOLD } from './subject-box';

/** The engine's subject box is contracts' subjectBoxOf (subject-box.test.ts there has the rule's cases). */
describe('findSubjectBox', () => {
  it('keeps a wheel hanging from the subject by a strap one pixel wide (the crop never cuts a tyre off)', () => {
    // A matte of a photo's size (741 x 500): a body, a strap and, 75 px below, a wheel far under 1% of the body.
    const [w, h] = [741, 500];
    const data = Buffer.alloc(w * h);
    for (let y = 100; y < 300; y++) data.fill(255, y * w + 185, y * w + 445);
    for (let y = 300; y < 375; y++) data[y * w + 296] = 255;
    for (let y = 375; y < 380; y++) data.fill(255, y * w + 294, y * w + 299);
    expect(findSubjectBox({ data, width: w, height: h })).toEqual({ left: 185, top: 100, width: 260, height: 280 });
  });

  it('is a plain scan of the real ISNet matte of the coffee photo', async () => {
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
    const box = findSubjectBox({ data, width: info.width, height: info.height });
    expect(box).toEqual({ left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
  });
});
