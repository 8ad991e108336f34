// The ncnn converter against plain TypeScript forward passes: the real Real-ESRGAN SRVGG weights (read from the
// cached tarballs by a separate, structure-aware reader) on a 24x24 crop, and small synthetic models for the
// other layer kinds. Unknown layers must fail with the layer named.
import { join } from 'node:path';
import sharp from 'sharp';
import { getModel } from '../manifest';
import { readTarballFiles } from '../prepare/tarball';
import { requireTarball } from '../testing/cache';
import { runOnnx } from '../testing/ort';
import {
  add,
  bicubicHalve,
  type Chw,
  chw,
  concat,
  conv2d,
  depthToSpace,
  maxAbsDiff,
  prelu,
  randomFloats,
  relu,
  scale,
  upsampleNearest,
} from '../testing/reference';
import { halfToFloat } from './fp16-to-fp32';
import { convertNcnnModel, parseParam, UnsupportedLayerError } from './ncnn';

const CROP = join(__dirname, '..', 'fixtures', 'chelsea-crop-48x40.png');

/** A 24x24 crop of the fixture photo as CHW float32 in 0..1. */
async function crop24(): Promise<Chw> {
  const { data } = await sharp(CROP)
    .removeAlpha()
    .extract({ left: 8, top: 8, width: 24, height: 24 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const x = chw(3, 24, 24);
  for (let i = 0; i < 576; i++) for (let c = 0; c < 3; c++) x.data[c * 576 + i] = (data[i * 3 + c] as number) / 255;
  return x;
}

/**
 * SRVGG "compact" written out by hand: conv 3->64 + PReLU, `body` x (conv 64->64 + PReLU), conv 64->48,
 * pixel shuffle x4, plus the nearest-upsampled input. Weights are read straight from the .bin in that order
 * (fp16 conv weights behind a 4-byte tag, fp32 biases and slopes), without the converter's param parsing.
 */
function srvggReference(bin: Buffer, body: number, x: Chw): Chw {
  let offset = 0;
  const fp16 = (n: number) => {
    if (bin.readUInt32LE(offset) !== 0x01306b47) throw new Error(`expected the fp16 tag at ${offset}`);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = halfToFloat(bin.readUInt16LE(offset + 4 + 2 * i));
    offset += 4 + Math.ceil((2 * n) / 4) * 4;
    return out;
  };
  const fp32 = (n: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = bin.readFloatLE(offset + 4 * i);
    offset += 4 * n;
    return out;
  };
  const conv = (input: Chw, cout: number) => {
    const w = fp16(cout * input.c * 9);
    return conv2d(input, w, fp32(cout), cout, 3, 1);
  };
  let h = prelu(conv(x, 64), fp32(64));
  for (let i = 0; i < body; i++) h = prelu(conv(h, 64), fp32(64));
  const out = add(depthToSpace(conv(h, 48), 4, 'CRD'), upsampleNearest(x, 4));
  if (offset !== bin.length) throw new Error(`reference read ${offset} of ${bin.length} bytes`);
  return out;
}

const SRVGG_IDS = ['realesr-general-x4v3', 'realesr-animevideov3-x4', 'realesr-animevideov3-x2'];
const tarballReads = new Map<string, Promise<Map<string, Buffer>>>();

/** The .param text and .bin bytes of a model, each tarball read once for all the models above. */
async function ncnnFiles(id: string): Promise<{ param: string; bin: Buffer }> {
  const entry = getModel(id);
  const base = entry.source.path.replace(/\.param$/, '');
  const tarball = requireTarball(entry);
  const wanted = new Set(
    SRVGG_IDS.map(getModel).flatMap((m) => [m.source.path, m.source.path.replace(/\.param$/, '.bin')]),
  );
  if (!tarballReads.has(tarball))
    tarballReads.set(
      tarball,
      readTarballFiles(tarball, (p) => wanted.has(p)),
    );
  const files = await tarballReads.get(tarball)!;
  return { param: files.get(`${base}.param`)!.toString('utf8'), bin: files.get(`${base}.bin`)! };
}

describe('ncnn converter on the real Real-ESRGAN weights', () => {
  it.each([
    ['realesr-general-x4v3', 32, 34],
    ['realesr-animevideov3-x4', 16, 18],
  ])(
    '%s equals a plain SRVGG forward pass on 24x24 (receptive radius %i body convs -> %i)',
    async (id, body, radius) => {
      const { param, bin } = await ncnnFiles(id);
      const converted = convertNcnnModel(param, bin);
      expect(converted.scale).toBe(4);
      expect(converted.receptiveRadius).toBe(radius);
      expect(converted.ops).toMatchObject({ Conv: body + 2, PRelu: body + 1, DepthToSpace: 1, Resize: 1, Add: 1 });
      const x = await crop24();
      const expected = srvggReference(bin, body, x);
      const actual = await runOnnx(converted.onnx, x.data, [1, 3, 24, 24]);
      expect(actual.dims).toEqual([1, 3, 96, 96]);
      expect(maxAbsDiff(expected.data, actual.data)).toBeLessThan(2e-5);
      // Not a trivial pass-through: the network changes the nearest-upsampled input noticeably.
      expect(maxAbsDiff(upsampleNearest(x, 4).data, actual.data)).toBeGreaterThan(0.05);
    },
    120_000,
  );

  it('realesr-animevideov3-x2 is the x4 network then a bicubic halving', async () => {
    const { param, bin } = await ncnnFiles('realesr-animevideov3-x2');
    const converted = convertNcnnModel(param, bin);
    expect(converted.scale).toBe(2);
    expect(converted.receptiveRadius).toBe(19);
    const x = await crop24();
    const expected = bicubicHalve(srvggReference(bin, 16, x));
    const actual = await runOnnx(converted.onnx, x.data, [1, 3, 24, 24]);
    expect(actual.dims).toEqual([1, 3, 48, 48]);
    expect(maxAbsDiff(expected.data, actual.data)).toBeLessThan(2e-5);
  }, 120_000);
});

/** Little-endian fp32 bytes, optionally behind the fp32 storage tag 0. */
function f32(values: Float32Array, tagged = false): Buffer {
  const b = Buffer.alloc(values.length * 4 + (tagged ? 4 : 0));
  values.forEach((v, i) => b.writeFloatLE(v, (tagged ? 4 : 0) + i * 4));
  return b;
}

describe('ncnn converter on synthetic models', () => {
  it('covers fused LeakyReLU/ReLU, Concat, Eltwise with coefficients, scalar BinaryOp and DCR pixel shuffle', async () => {
    const w1 = randomFloats(4 * 3 * 9, 1);
    const b1 = randomFloats(4, 2);
    const w2 = randomFloats(4 * 3 * 1, 3);
    const param = [
      '7767517',
      '8 10',
      'Input in 0 1 data',
      'Split split 1 3 data d0 d1 d2',
      'Convolution c1 1 1 d0 a 0=4 1=3 4=1 5=1 6=108 9=2 -23310=1,1.000000e-01',
      'Convolution c2 1 1 d1 b 0=4 1=1 5=0 6=12 9=1',
      'Eltwise e 2 1 a b s 0=1 -23301=2,5.000000e-01,2.000000e+00',
      'Concat cat 2 1 s d2 cc 0=0',
      'BinaryOp mul 1 1 cc m 0=2 1=1 2=3.000000e+00',
      'PixelShuffle ps 1 1 m output 0=1 1=1',
    ].join('\n');
    const bin = Buffer.concat([f32(w1, true), f32(b1), f32(w2, true)]);
    const converted = convertNcnnModel(param, bin);
    expect(converted.receptiveRadius).toBe(1);
    const x = chw(3, 5, 6, randomFloats(90, 4));
    const leaky = (t: Chw) =>
      chw(
        t.c,
        t.h,
        t.w,
        t.data.map((v) => (v >= 0 ? v : 0.1 * v)),
      );
    const a = leaky(conv2d(x, w1, b1, 4, 3, 1));
    const b = relu(conv2d(x, w2, new Float32Array(4), 4, 1, 0));
    const expected = scale(concat([add(scale(a, 0.5), scale(b, 2)), x]), 3);
    const actual = await runOnnx(converted.onnx, x.data, [1, 3, 5, 6]);
    expect(actual.dims).toEqual([1, 7, 5, 6]);
    expect(maxAbsDiff(expected.data, actual.data)).toBeLessThan(1e-5);
  });

  it('parses array parameters and checks the magic line', () => {
    const [layer] = parseParam('7767517\n1 1\nEltwise e 0 1 out 0=1 -23301=3,1.0,2.5,-1\n');
    expect(layer!.params.get(1)).toEqual([1, 2.5, -1]);
    expect(layer!.params.get(0)).toBe(1);
    expect(() => parseParam('7767516\n0 0\n')).toThrow(/not an ncnn param file/);
  });

  it('refuses unknown layer types, naming the layer', () => {
    const param = '7767517\n2 2\nInput in 0 1 data\nDeconvolution up 1 1 data output 0=3 1=4\n';
    expect(() => convertNcnnModel(param, Buffer.alloc(0))).toThrow(UnsupportedLayerError);
    expect(() => convertNcnnModel(param, Buffer.alloc(0))).toThrow(
      'ncnn layer up (Deconvolution): layer type not supported',
    );
  });

  it('refuses a bin file that does not match the param file', () => {
    const param = '7767517\n2 2\nInput in 0 1 data\nConvolution c 1 1 data output 0=1 1=1 5=0 6=3\n';
    expect(() => convertNcnnModel(param, Buffer.alloc(8))).toThrow(/bin file ends/);
    expect(() => convertNcnnModel(param, Buffer.alloc(20))).toThrow(/bytes left/);
  });
});
