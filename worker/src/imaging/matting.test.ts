import { boxFilter } from './box-filter';
import {
  compositeAlpha,
  decontaminateEdges,
  decontaminationFactor,
  downsample,
  guidedFilterAlpha,
  maskIou,
  maskToBytes,
  parseHexColor,
  sampleBilinear,
  toNchw,
} from './matting';

describe('matting helpers', () => {
  it('lays out RGB as normalised NCHW planes', () => {
    const px = new Uint8Array([0, 128, 255, 9, 128, 128, 128, 9]);
    const t = toNchw(px, 2, 1, 4, { mean: 128, std: 256 });
    expect(Array.from(t)).toEqual([-0.5, 0, 0, 0, 127 / 256, 0]);
  });

  it('clamps mask floats into bytes', () => {
    expect(Array.from(maskToBytes(new Float32Array([-1, 0, 0.5, 1, 2])))).toEqual([0, 0, 128, 255, 255]);
  });

  it('box-filters with clipped windows (a constant stays constant, a spike spreads evenly)', () => {
    const c = boxFilter(new Float32Array(25).fill(3), 5, 5, 2);
    expect(Array.from(c).every((v) => Math.abs(v - 3) < 1e-6)).toBe(true);
    const spike = new Float32Array(25);
    spike[12] = 9;
    expect(boxFilter(spike, 5, 5, 1)[12]).toBeCloseTo(1);
  });

  it('composites the alpha with the input alpha, or onto a background colour', () => {
    const rgba = new Uint8Array([200, 100, 50, 255, 10, 20, 30, 128, 70, 80, 90, 255, 70, 80, 90, 0]);
    const alpha = new Uint8Array([255, 255, 0, 255]);
    const t = compositeAlpha(rgba, alpha, 4, 1);
    expect(t.channels).toBe(4);
    // Where the mask or the input's own alpha is 0 the (invisible) colour is zeroed.
    expect(Array.from(t.data)).toEqual([200, 100, 50, 255, 10, 20, 30, 128, 0, 0, 0, 0, 0, 0, 0, 0]);
    const half = compositeAlpha(new Uint8Array([200, 100, 50, 255]), new Uint8Array([128]), 1, 1, {
      backgroundColor: '#000000',
    });
    expect(half.channels).toBe(3);
    expect(Array.from(half.data)).toEqual([100, 50, 25]);
    expect(parseHexColor('#0aFF10')).toEqual([10, 255, 16]);
  });

  it('guided filter keeps a step edge that follows the image edge', () => {
    // Left half dark, right half bright; a mask that is 1 on the right with a blurry transition.
    const w = 32;
    const h = 8;
    const rgba = new Uint8Array(w * h * 4);
    const alpha = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const v = x < 16 ? 20 : 230;
        rgba.set([v, v, v, 255], (y * w + x) * 4);
        alpha[y * w + x] = Math.max(0, Math.min(255, (x - 12) * 32));
      }
    const refined = guidedFilterAlpha(rgba, alpha, w, h, 3, 1e-4);
    expect(refined[4 * w + 14]!).toBeLessThan(alpha[4 * w + 14]!); // transition pulled towards the image edge
    expect(refined[4 * w + 2]).toBe(0);
    expect(refined[4 * w + 30]).toBe(255);
  });

  it('decontaminates semi-transparent pixels towards the foreground colour', () => {
    // Red foreground on the left, green background on the right, a mixed column in between at alpha 0.5.
    const w = 21;
    const h = 5;
    const rgba = new Uint8Array(w * h * 4);
    const alpha = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const a = x < 10 ? 255 : x === 10 ? 128 : 0;
        alpha[i] = a;
        rgba.set(x < 10 ? [255, 0, 0, 255] : x === 10 ? [128, 127, 0, 255] : [0, 255, 0, 255], i * 4);
      }
    decontaminateEdges(rgba, alpha, w, h);
    const edge = (2 * w + 10) * 4;
    expect(rgba[edge]).toBeGreaterThan(200); // red restored
    expect(rgba[edge + 1]).toBeLessThan(40); // green removed
    expect(rgba[(2 * w + 2) * 4 + 1]).toBe(0); // opaque pixels untouched
  });

  it('downsamples by block averages and samples back bilinearly', () => {
    const src = new Float32Array([1, 3, 5, 7, 9, 11, 13, 15, 17]); // 3x3
    const small = downsample(src, 3, 3, 2);
    expect(Array.from(small)).toEqual([(1 + 3 + 7 + 9) / 4, (5 + 11) / 2, (13 + 15) / 2, 17]);
    expect(sampleBilinear(small, 2, 2, 0, 0, 2)).toBeCloseTo(5);
    expect(sampleBilinear(small, 2, 2, 1, 1, 2)).toBeCloseTo(
      (5 * 0.75 + 8 * 0.25) * 0.75 + (14 * 0.75 + 17 * 0.25) * 0.25,
    );
    // One channel of interleaved RGBA bytes (green here), scaled to 0..1.
    const rgba = new Uint8Array(2 * 2 * 4);
    [10, 20, 30, 40].forEach((g, i) => (rgba[i * 4 + 1] = g));
    expect(Array.from(downsample(rgba, 2, 2, 2, 4, 1, 1 / 255))[0]).toBeCloseTo(25 / 255);
  });

  it('decontaminates large images on the downsampled grid as well', () => {
    const w = 1024;
    const h = 40;
    // 1024 px wide: a 256 px working grid, i.e. blocks of 4 x 4 pixels.
    expect(decontaminationFactor(w, h)).toBe(4);
    expect(decontaminationFactor(300, 200)).toBe(1);
    const rgba = new Uint8Array(w * h * 4);
    const alpha = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) {
      const x = i % w;
      alpha[i] = x < 510 ? 255 : x === 510 ? 128 : 0;
      rgba.set(x < 510 ? [255, 0, 0, 255] : x === 510 ? [128, 127, 0, 255] : [0, 255, 0, 255], i * 4);
    }
    decontaminateEdges(rgba, alpha, w, h);
    const edge = (20 * w + 510) * 4;
    expect(rgba[edge]).toBeGreaterThan(200);
    expect(rgba[edge + 1]).toBeLessThan(60);
    // Opaque and transparent pixels keep their colour.
    expect(Array.from(rgba.subarray(edge - 4, edge))).toEqual([255, 0, 0, 255]);
    expect(Array.from(rgba.subarray(edge + 4, edge + 8))).toEqual([0, 255, 0, 255]);
  });

  it('computes IoU at 50%', () => {
    expect(maskIou(new Uint8Array([255, 255, 0, 0]), new Uint8Array([255, 0, 0, 0]))).toBe(0.5);
  });
});
