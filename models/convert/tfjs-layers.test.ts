// The converter on small synthetic layer models: every supported layer kind, checked against TF.js running
// the same model and against a plain JS convolution; unsupported layers are refused by name.
import type * as tfType from '@tensorflow/tfjs';
import { decodeModel } from '../onnx';
import { chw, conv2d, maxAbsDiff, randomFloats } from '../testing/reference';
import { runOnnx } from '../testing/ort';
import { loadTf, MultiplyBeta, PixelShuffle2x, predictNchw, saveLayersModel } from '../testing/tfjs';
import { convertLayersModel, hwioToOihw, type LayersModelJson } from './tfjs-layers';

let tf: typeof tfType;
beforeAll(async () => {
  tf = await loadTf();
  expect(tf.getBackend()).toBe('wasm');
});

/** Spread of the values, so a comparison of two all-zero (or constant) outputs cannot pass. */
function spread(data: Float32Array): number {
  let min = Infinity;
  let max = -Infinity;
  for (const v of data) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return max - min;
}

const init = (seed: number) => tf.initializers.randomUniform({ minval: -0.3, maxval: 0.3, seed });

/** Converts a TF.js model, runs both on the same random NCHW input, returns the outputs. */
async function compare(model: tfType.LayersModel, c: number, h: number, w: number) {
  const { json, shard } = await saveLayersModel(model);
  const converted = convertLayersModel(json, () => shard);
  const input = randomFloats(c * h * w, 99, 0, 1);
  const onnx = await runOnnx(converted.onnx, input, [1, c, h, w]);
  const reference = predictNchw(model, input, c, h, w);
  return { converted, onnx, reference, json };
}

describe('convertLayersModel', () => {
  it('converts an RDN-style model (Conv2D same/valid, fused and separate relu, Concatenate, Add, UpSampling2D)', async () => {
    const x = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const conv = (filters: number, k: number, seed: number, extra: Record<string, unknown> = {}) =>
      tf.layers.conv2d({
        filters,
        kernelSize: k,
        padding: 'same',
        kernelInitializer: init(seed),
        biasInitializer: init(seed + 100),
        ...extra,
      });
    const c1 = conv(8, 3, 1).apply(x) as tfType.SymbolicTensor;
    const c2 = conv(4, 3, 2, { activation: 'relu' }).apply(c1) as tfType.SymbolicTensor;
    const c3 = conv(4, 3, 3).apply(c1) as tfType.SymbolicTensor;
    const r3 = tf.layers.activation({ activation: 'relu' }).apply(c3) as tfType.SymbolicTensor;
    const cat = tf.layers.concatenate({ axis: -1 }).apply([c1, c2, r3]) as tfType.SymbolicTensor;
    const lff = conv(8, 1, 4, { padding: 'valid' }).apply(cat) as tfType.SymbolicTensor;
    const sum = tf.layers.add().apply([lff, c1]) as tfType.SymbolicTensor;
    const up = tf.layers.upSampling2d({ size: [2, 2] }).apply(sum) as tfType.SymbolicTensor;
    const out = conv(3, 5, 5).apply(up) as tfType.SymbolicTensor;
    const model = tf.model({ inputs: x, outputs: out });

    const { converted, onnx, reference } = await compare(model, 3, 7, 9);
    expect(onnx.dims).toEqual([1, 3, 14, 18]);
    expect(reference.dims).toEqual([1, 3, 14, 18]);
    expect(spread(reference.data)).toBeGreaterThan(0.1);
    expect(maxAbsDiff(reference.data, onnx.data)).toBeLessThan(1e-5);
    expect(converted.scale).toBe(2);
    // The upsampling folds into the 5x5 conv after it: a 3x3 conv at the low resolution, then DepthToSpace.
    expect(converted.ops).toEqual({ Conv: 5, Relu: 2, Concat: 1, Add: 1, DepthToSpace: 1 });
    // Two 3x3 convs (radius 1 each) at scale 1, then a 5x5 (radius 2) at scale 2: 1 + 1 + 2/2 = 3 input pixels.
    expect(converted.receptiveRadius).toBe(3);
  });

  it('folds an upsampling into the conv after it for any factor and odd kernel, fused relu included', async () => {
    for (const [factor, k, seed] of [
      [2, 3, 31],
      [3, 3, 32],
      [4, 3, 33],
      [4, 7, 34],
      [3, 1, 35],
    ] as const) {
      const x = tf.input({ shape: [null, null, 3] as unknown as number[] });
      const pre = tf.layers
        .conv2d({
          filters: 5,
          kernelSize: 3,
          padding: 'same',
          kernelInitializer: init(seed),
          biasInitializer: init(seed + 100),
        })
        .apply(x) as tfType.SymbolicTensor;
      const up = tf.layers.upSampling2d({ size: [factor, factor] }).apply(pre) as tfType.SymbolicTensor;
      const out = tf.layers
        .conv2d({
          filters: 2,
          kernelSize: k,
          padding: 'same',
          activation: 'relu',
          kernelInitializer: init(seed + 200),
          biasInitializer: init(seed + 300),
        })
        .apply(up) as tfType.SymbolicTensor;
      const { converted, onnx, reference } = await compare(tf.model({ inputs: x, outputs: out }), 3, 5, 6);
      expect(converted.ops).toEqual({ Conv: 2, DepthToSpace: 1, Relu: 1 });
      expect(onnx.dims).toEqual([1, 2, 5 * factor, 6 * factor]);
      expect(spread(reference.data)).toBeGreaterThan(0.1);
      expect(maxAbsDiff(reference.data, onnx.data)).toBeLessThan(1e-5);
    }
  });

  it('keeps an upsampling that is read twice, or is the output, as a Resize', async () => {
    const x = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const up = tf.layers.upSampling2d({ size: [2, 2] }).apply(x) as tfType.SymbolicTensor;
    const a = tf.layers
      .conv2d({ filters: 3, kernelSize: 3, padding: 'same', kernelInitializer: init(41), biasInitializer: init(42) })
      .apply(up) as tfType.SymbolicTensor;
    const sum = tf.layers.add().apply([a, up]) as tfType.SymbolicTensor;
    const twice = await compare(tf.model({ inputs: x, outputs: sum }), 3, 4, 5);
    expect(twice.converted.ops).toEqual({ Resize: 1, Conv: 1, Add: 1 });
    expect(maxAbsDiff(twice.reference.data, twice.onnx.data)).toBeLessThan(1e-5);

    const y = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const last = tf.layers.upSampling2d({ size: [3, 3] }).apply(y) as tfType.SymbolicTensor;
    const output = await compare(tf.model({ inputs: y, outputs: last }), 3, 4, 5);
    expect(output.converted.ops).toEqual({ Resize: 1 });
    expect(maxAbsDiff(output.reference.data, output.onnx.data)).toBeLessThan(1e-6);
  });

  it('converts an RRDN-style model (MultiplyBeta, 3-way Add, even kernel, no bias, PixelShuffle) with dynamic sizes', async () => {
    const x = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const c1 = tf.layers
      .conv2d({ filters: 6, kernelSize: 3, padding: 'same', kernelInitializer: init(11), biasInitializer: init(12) })
      .apply(x) as tfType.SymbolicTensor;
    const c2 = tf.layers
      .conv2d({ filters: 6, kernelSize: 2, padding: 'same', useBias: false, kernelInitializer: init(13) })
      .apply(c1) as tfType.SymbolicTensor;
    const beta = new MultiplyBeta({ beta: 0.2 }).apply(c2) as tfType.SymbolicTensor;
    const sum = tf.layers.add().apply([beta, c1, c2]) as tfType.SymbolicTensor;
    const pre = tf.layers
      .conv2d({ filters: 12, kernelSize: 3, padding: 'same', kernelInitializer: init(14), biasInitializer: init(15) })
      .apply(sum) as tfType.SymbolicTensor;
    const shuffled = new PixelShuffle2x({}).apply(pre) as tfType.SymbolicTensor;
    const out = tf.layers
      .conv2d({ filters: 3, kernelSize: 3, padding: 'same', kernelInitializer: init(16), biasInitializer: init(17) })
      .apply(shuffled) as tfType.SymbolicTensor;
    const model = tf.model({ inputs: x, outputs: out });

    const { json, shard } = await saveLayersModel(model);
    const converted = convertLayersModel(json, () => shard);
    expect(converted.ops).toEqual({ Conv: 4, Mul: 1, Sum: 1, DepthToSpace: 1 });
    const node = decodeModel(converted.onnx).graph.node.find((n) => n.opType === 'DepthToSpace');
    expect(node?.attribute.find((a) => a.name === 'mode')?.s?.toString()).toBe('DCR');
    // One converted model, several input sizes (height and width are dynamic), including odd ones.
    for (const [h, w] of [
      [5, 6],
      [8, 3],
    ] as const) {
      const input = randomFloats(3 * h * w, h * 31 + w, 0, 1);
      const onnx = await runOnnx(converted.onnx, input, [1, 3, h, w]);
      const reference = predictNchw(model, input, 3, h, w);
      expect(onnx.dims).toEqual([1, 3, 2 * h, 2 * w]);
      expect(spread(reference.data)).toBeGreaterThan(0.1);
      expect(maxAbsDiff(reference.data, onnx.data)).toBeLessThan(1e-5);
    }
  });

  it('reads kernels as HWIO and matches a plain JS convolution', async () => {
    const [kh, kw, cin, cout] = [3, 3, 2, 3];
    const hwio = randomFloats(kh * kw * cin * cout, 21);
    const bias = randomFloats(cout, 22);
    const json: LayersModelJson = {
      format: 'layers-model',
      modelTopology: {
        model_config: {
          class_name: 'Functional',
          config: {
            name: 'tiny',
            layers: [
              {
                class_name: 'InputLayer',
                name: 'in',
                config: { batch_input_shape: [null, null, null, cin] },
                inbound_nodes: [],
              },
              {
                class_name: 'Conv2D',
                name: 'conv',
                config: {
                  filters: cout,
                  kernel_size: [kh, kw],
                  strides: [1, 1],
                  padding: 'same',
                  activation: 'linear',
                  use_bias: true,
                },
                inbound_nodes: [[['in', 0, 0, {}]]],
              },
            ],
            input_layers: [['in', 0, 0]],
            output_layers: [['conv', 0, 0]],
          },
        },
      },
      weightsManifest: [
        {
          paths: ['a.bin', 'b.bin'],
          weights: [
            { name: 'conv/kernel', shape: [kh, kw, cin, cout], dtype: 'float32' },
            { name: 'conv/bias', shape: [cout], dtype: 'float32' },
          ],
        },
      ],
    };
    // Two shards split at an odd byte offset: the weights span shard boundaries.
    const all = Buffer.concat([Buffer.from(hwio.buffer), Buffer.from(bias.buffer)]);
    const shards: Record<string, Uint8Array> = { 'a.bin': all.subarray(0, 37), 'b.bin': all.subarray(37) };
    const converted = convertLayersModel(json, (p) => shards[p] as Uint8Array);

    // Reference kernel in OIHW, indexed straight from the HWIO layout: kernel[y][x][i][o].
    const oihw = new Float32Array(hwio.length);
    for (let o = 0; o < cout; o++)
      for (let i = 0; i < cin; i++)
        for (let y = 0; y < kh; y++)
          for (let x = 0; x < kw; x++) {
            oihw[((o * cin + i) * kh + y) * kw + x] = hwio[((y * kw + x) * cin + i) * cout + o] as number;
          }
    expect(hwioToOihw(hwio, kh, kw, cin, cout)).toEqual(oihw);
    const input = chw(cin, 4, 5, randomFloats(cin * 20, 23));
    const expected = conv2d(input, oihw, bias, cout, 3, 1);
    const onnx = await runOnnx(converted.onnx, input.data, [1, cin, 4, 5]);
    expect(spread(expected.data)).toBeGreaterThan(0.1);
    expect(maxAbsDiff(expected.data, onnx.data)).toBeLessThan(1e-5);
  });

  it('refuses layers and settings it cannot convert exactly, naming the layer', async () => {
    const x = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const strided = tf.layers
      .conv2d({ filters: 2, kernelSize: 3, strides: 2, name: 'down' })
      .apply(x) as tfType.SymbolicTensor;
    const { json, shard } = await saveLayersModel(tf.model({ inputs: x, outputs: strided }));
    expect(() => convertLayersModel(json, () => shard)).toThrow('layer down (Conv2D): only stride 1 is supported');

    const y = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const bilinear = tf.layers
      .upSampling2d({ size: [2, 2], interpolation: 'bilinear', name: 'smooth' })
      .apply(y) as tfType.SymbolicTensor;
    const saved = await saveLayersModel(tf.model({ inputs: y, outputs: bilinear }));
    expect(() => convertLayersModel(saved.json, () => saved.shard)).toThrow(
      'layer smooth (UpSampling2D): only nearest interpolation',
    );

    const z = tf.input({ shape: [null, null, 3] as unknown as number[] });
    const bn = tf.layers.batchNormalization({ name: 'bn' }).apply(z) as tfType.SymbolicTensor;
    const savedBn = await saveLayersModel(tf.model({ inputs: z, outputs: bn }));
    expect(() => convertLayersModel(savedBn.json, () => savedBn.shard)).toThrow(
      'layer bn (BatchNormalization): layer type not supported',
    );
  });
});
