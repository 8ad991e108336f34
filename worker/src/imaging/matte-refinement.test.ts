import { labelComponents } from './components';
import { filledSilhouette, matteFigures } from './matte-metrics';
import { edgeBandWidth, refineMatte } from './matte-refinement';

/** Synthetic scenes: an image of two flat colours and a matte drawn with the same shapes. */
type Rgb = [number, number, number];
const BACKGROUND: Rgb = [60, 120, 200];
const SUBJECT: Rgb = [200, 80, 40];

class Scene {
  readonly alpha: Uint8Array;
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.alpha = new Uint8Array(width * height);
    this.data = new Uint8Array(width * height * 4);
    this.paint(() => true, 0, BACKGROUND);
  }

  /** Sets alpha and colour of the pixels `inside` picks. */
  paint(inside: (x: number, y: number) => boolean, alpha: number, colour: Rgb): this {
    for (let y = 0; y < this.height; y++)
      for (let x = 0; x < this.width; x++) {
        if (!inside(x, y)) continue;
        const i = y * this.width + x;
        this.alpha[i] = alpha;
        this.data.set([...colour, 255], i * 4);
      }
    return this;
  }

  image() {
    return { data: this.data, width: this.width, height: this.height, channels: 4 };
  }

  at(a: Uint8Array, x: number, y: number): number {
    return a[y * this.width + x]!;
  }
}

const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

describe('labelComponents', () => {
  it('joins runs across rows, diagonally only with 8-connectivity, and reports area, box and border contact', () => {
    // Two diagonal pixels and a bar along the bottom border.
    const mask = Uint8Array.from(
      [
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 1, 1, 1, 0],
      ].flat(),
    );
    const eight = labelComponents(mask, 5, 4, 8);
    expect(eight.count).toBe(2);
    expect(Array.from(eight.area)).toEqual([2, 3]);
    expect([eight.minX[1], eight.minY[1], eight.maxX[1], eight.maxY[1], eight.touchesBorder[1]]).toEqual([
      1, 3, 3, 3, 1,
    ]);
    const four = labelComponents(mask, 5, 4, 4);
    expect(four.count).toBe(3);
    // The runs of each component are listed together.
    for (let c = 0; c < four.count; c++)
      for (let k = four.labelOffset[c]!; k < four.labelOffset[c + 1]!; k++)
        expect(four.runLabel[four.byLabel[k]!]).toBe(c);
  });

  it('finds runs that span whole rows and an all-set mask as one component', () => {
    const full = labelComponents(new Uint8Array(12).fill(1), 4, 3, 4);
    expect([full.count, full.runs, full.area[0]]).toEqual([1, 3, 12]);
    expect(labelComponents(new Uint8Array(12), 4, 3, 8).count).toBe(0);
  });
});

describe('refineMatte', () => {
  it('keeps a hole open where the image shows the background through it (a ring)', () => {
    const scene = new Scene(120, 100)
      .paint(disc(60, 50, 35), 255, SUBJECT)
      // An unsure hole (25% alpha) whose colour is the background's, like the gap between a handle and a body.
      .paint(disc(60, 50, 15), 64, BACKGROUND);
    const out = refineMatte(scene.alpha, scene.image());
    expect(scene.at(out, 60, 50)).toBe(64);
    expect(scene.at(out, 60, 38)).toBe(64);
    expect(scene.at(out, 60, 25)).toBe(255);
  });

  it('fills an enclosed hole the model was unsure of when its colour is the subject`s', () => {
    // 40% alpha: a dip in a soft chest rather than a gap.
    const scene = new Scene(120, 100).paint(disc(60, 50, 35), 255, SUBJECT).paint(disc(60, 50, 15), 100, SUBJECT);
    const out = refineMatte(scene.alpha, scene.image());
    expect(scene.at(out, 60, 50)).toBe(255);
    expect(matteFigures(out, 120, 100).softShare).toBe(0);
  });

  it.each([0, 60])('keeps a hole the model was fairly sure of (alpha %i) whatever its colour', (alpha) => {
    const scene = new Scene(120, 100).paint(disc(60, 50, 35), 255, SUBJECT).paint(disc(60, 50, 15), alpha, SUBJECT);
    expect(scene.at(refineMatte(scene.alpha, scene.image()), 60, 50)).toBe(alpha);
  });

  it('makes an enclosed soft patch opaque, but not one showing the background', () => {
    const patch = new Scene(120, 100).paint(disc(60, 50, 35), 255, SUBJECT).paint(disc(60, 50, 15), 170, [190, 90, 50]);
    const filled = refineMatte(patch.alpha, patch.image());
    expect(patch.at(filled, 60, 50)).toBe(255);
    expect(matteFigures(patch.alpha, 120, 100).softShare).toBeGreaterThan(0.15);
    expect(matteFigures(filled, 120, 100).softShare).toBe(0);

    const window = new Scene(120, 100).paint(disc(60, 50, 35), 255, SUBJECT).paint(disc(60, 50, 15), 170, BACKGROUND);
    expect(window.at(refineMatte(window.alpha, window.image()), 60, 50)).toBe(170);
  });

  it('fills a soft patch that reaches the image border (a body cut by the frame)', () => {
    // The subject fills the lower half; its lower middle is soft (the cat's white chest).
    const scene = new Scene(200, 100)
      .paint((x, y) => y >= 40, 255, SUBJECT)
      .paint((x, y) => y >= 60 && x >= 50 && x < 150, 200, [230, 220, 210]);
    const out = refineMatte(scene.alpha, scene.image());
    expect(scene.at(out, 100, 99)).toBe(255);
    expect(scene.at(out, 100, 70)).toBe(255);
  });

  it('drops a small speck far from the subject and keeps one close to it', () => {
    const scene = new Scene(400, 300)
      .paint(disc(150, 150, 80), 255, SUBJECT)
      // Far: 3x3 at the top right corner. Near: 3x3 five pixels right of the disc.
      .paint((x, y) => x >= 380 && x < 383 && y >= 10 && y < 13, 200, SUBJECT)
      .paint((x, y) => x >= 235 && x < 238 && y >= 149 && y < 152, 200, SUBJECT);
    const out = refineMatte(scene.alpha, scene.image());
    expect(scene.at(out, 381, 11)).toBe(0);
    expect(scene.at(out, 236, 150)).toBe(200);
    expect(scene.at(out, 150, 150)).toBe(255);
  });

  it('keeps a large separate part (a second shoe) however far it is', () => {
    const scene = new Scene(400, 300).paint(disc(100, 150, 60), 255, SUBJECT).paint(disc(330, 150, 30), 255, SUBJECT);
    expect(scene.at(refineMatte(scene.alpha, scene.image()), 330, 150)).toBe(255);
  });

  it('keeps the soft edge: the 1-px band of partial alpha along the outline', () => {
    // A disc whose alpha falls from 255 to 0 over 8 px, like fur, with a soft middle (the model unsure).
    const scene = new Scene(200, 200);
    for (let y = 0; y < 200; y++)
      for (let x = 0; x < 200; x++) {
        const d = Math.hypot(x - 100, y - 100);
        const a = d <= 20 ? 200 : d <= 60 ? 255 : d >= 68 ? 0 : Math.round((255 * (68 - d)) / 8);
        scene.alpha[y * 200 + x] = a;
        scene.data.set([...(a > 0 ? SUBJECT : BACKGROUND), 255], (y * 200 + x) * 4);
      }
    const out = refineMatte(scene.alpha, scene.image());
    const before = matteFigures(scene.alpha, 200, 200);
    const after = matteFigures(out, 200, 200);
    expect(before.edgeBand).toBeGreaterThan(300);
    expect(after.edgeBand).toBeGreaterThanOrEqual(before.edgeBand * 0.9);
    // The outer half of the ramp is untouched; the soft inside is solid.
    expect(scene.at(out, 100 + 66, 100)).toBe(scene.at(scene.alpha, 100 + 66, 100));
    expect(scene.at(out, 100, 100)).toBe(255);
    expect(after.softShare).toBeLessThan(0.05);
    // Same outline: the refinement does not move the subject's edge.
    expect(Array.from(filledSilhouette(out, 200, 200))).toEqual(Array.from(filledSilhouette(scene.alpha, 200, 200)));
  });

  it('returns a new matte and leaves its input alone; refuses mismatched sizes', () => {
    const scene = new Scene(120, 100).paint(disc(60, 50, 35), 255, SUBJECT).paint(disc(60, 50, 15), 170, SUBJECT);
    const copy = Uint8Array.from(scene.alpha);
    const out = refineMatte(scene.alpha, scene.image());
    expect(out).not.toBe(scene.alpha);
    expect(Array.from(scene.alpha)).toEqual(Array.from(copy));
    expect(() => refineMatte(scene.alpha, { ...scene.image(), width: 119 })).toThrow('sizes differ');
  });

  it('widens the edge band with the image: the model`s 1024 px edges are enlarged with it', () => {
    expect([edgeBandWidth(451, 300), edgeBandWidth(1500, 998), edgeBandWidth(4000, 3000)]).toEqual([1, 1, 4]);
  });
});
