// The builder's bytes load and run in onnxruntime, and the results equal plain JS reference ops.
import * as ort from 'onnxruntime-node';
import {
  chw,
  concat,
  conv2d,
  depthToSpace,
  maxAbsDiff,
  randomFloats,
  relu,
  upsampleNearest,
} from '../testing/reference';
import { decodeModel, float, GraphBuilder, ints } from './index';

async function run(
  model: Uint8Array,
  feeds: Record<string, ort.Tensor>,
): Promise<ort.InferenceSession.OnnxValueMapType> {
  const session = await ort.InferenceSession.create(model);
  try {
    return await session.run(feeds);
  } finally {
    await session.release();
  }
}

describe('GraphBuilder', () => {
  it('builds a conv graph with dynamic H/W that matches the JS reference', async () => {
    const g = new GraphBuilder('convnet');
    g.input('x', 'float32', [1, 2, 'H', 'W']);
    const k = randomFloats(4 * 2 * 3 * 3, 1);
    const b = randomFloats(4, 2);
    const conv = g.node('Conv', ['x', g.float32('k', [4, 2, 3, 3], k), g.float32('b', [4], b)], {
      kernel_shape: [3, 3],
      pads: [1, 1, 1, 1],
    });
    const act = g.node('Relu', [conv]);
    const cat = g.node('Concat', [act, 'x'], { axis: 1 }); // 6 channels
    const shuffled = g.node('Concat', [cat, cat], { axis: 1 }); // 12 channels: 3 x block 2^2
    const d2s = g.node('DepthToSpace', [shuffled], { blocksize: 2, mode: 'DCR' });
    const scales = g.float32('scales', [4], [1, 1, 2, 2]);
    g.node(
      'Resize',
      [d2s, '', scales],
      { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' },
      { output: 'y' },
    );
    g.output('y', 'float32', [1, 3, 'H4', 'W4']);
    const model = g.toModel({ opset: 17, metadata: { purpose: 'test' } });

    const x = chw(2, 5, 7, randomFloats(2 * 5 * 7, 3));
    const out = await run(model, { x: new ort.Tensor('float32', x.data, [1, 2, 5, 7]) });
    const y = out.y as ort.Tensor;
    expect(y.dims).toEqual([1, 3, 20, 28]);

    const a = relu(conv2d(x, k, b, 4, 3, 1));
    const c = concat([a, x]);
    const expected = upsampleNearest(depthToSpace(concat([c, c]), 2), 2);
    expect(maxAbsDiff(expected.data, y.data as Float32Array)).toBeLessThan(1e-5);

    const decoded = decodeModel(model);
    expect(decoded.graph.node.map((n) => n.opType)).toEqual([
      'Conv',
      'Relu',
      'Concat',
      'Concat',
      'DepthToSpace',
      'Resize',
    ]);
    expect(decoded.opsetImport[0]?.version).toBe(17);
    expect(decoded.metadataProps).toEqual([{ key: 'purpose', value: 'test' }]);
  });

  it('builds an embedding + MatMul graph with int64 inputs, Gather and Reshape', async () => {
    const vocab = 10;
    const dim = 4;
    const out = 3;
    const table = randomFloats(vocab * dim, 4);
    const w = randomFloats(dim * out, 5);
    const bias = randomFloats(out, 6);
    const g = new GraphBuilder('encoder');
    g.input('ids', 'int64', [1, 'T']);
    const emb = g.node('Gather', [g.float32('table', [vocab, dim], table), 'ids'], { axis: 0 });
    const mm = g.node('MatMul', [emb, g.float32('w', [dim, out], w)]);
    const biased = g.node('Add', [mm, g.float32('bias', [out], bias)]);
    const scaled = g.node('Mul', [biased, g.float32('half', [], [0.5])]);
    const lrelu = g.node('LeakyRelu', [scaled], { alpha: float(1) }); // alpha 1 is a float attribute: identity
    g.node('Reshape', [lrelu, g.int64('flat', [-1])], {}, { output: 'flat_out' });
    g.output('flat_out', 'float32', ['N']);

    const ids = [3, 0, 9];
    const result = await run(g.toModel(), {
      ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, 3]),
    });
    const y = result.flat_out as ort.Tensor;
    const expected: number[] = [];
    for (const id of ids) {
      for (let o = 0; o < out; o++) {
        let s = bias[o] as number;
        for (let d = 0; d < dim; d++) s += (table[id * dim + d] as number) * (w[d * out + o] as number);
        expected.push(s * 0.5);
      }
    }
    expect(y.dims).toEqual([9]);
    expect(maxAbsDiff(expected, y.data as Float32Array)).toBeLessThan(1e-5);
  });

  it('types attributes by value unless told otherwise', () => {
    const g = new GraphBuilder();
    g.input('x', 'float32', [2]);
    g.node(
      'Foo',
      ['x'],
      { i: 2, f: 0.5, forced: float(2), s: 'abc', is: [1, -1], fs: [0.5, 1], ss: ['a', 'b'], forcedInts: ints([]) },
      { output: 'y', domain: 'test.domain' },
    );
    g.output('y', 'float32');
    const attrs = decodeModel(g.toModel({ extraOpsets: { 'test.domain': 1 } })).graph.node[0]?.attribute ?? [];
    const byName = Object.fromEntries(attrs.map((a) => [a.name, a]));
    expect(byName.i).toMatchObject({ type: 2, i: 2 });
    expect(byName.f).toMatchObject({ type: 1, f: 0.5 });
    expect(byName.forced).toMatchObject({ type: 1, f: 2 });
    expect(byName.s?.type).toBe(3);
    expect(byName.s?.s?.toString()).toBe('abc');
    expect(byName.is).toMatchObject({ type: 7, ints: [1, -1] });
    expect(byName.fs).toMatchObject({ type: 6, floats: [0.5, 1] });
    expect(byName.ss?.type).toBe(8);
    expect(byName.forcedInts?.type).toBe(7);
  });

  it('rejects undefined inputs, duplicate names, wrong tensor sizes and missing outputs', () => {
    const g = new GraphBuilder();
    g.input('x', 'float32', [1]);
    expect(() => g.node('Relu', ['nope'])).toThrow('input "nope" is not defined yet');
    expect(() => g.input('x', 'float32')).toThrow('already defined');
    expect(() => g.float32('w', [2, 2], [1, 2, 3])).toThrow('3 values for dims [2, 2]');
    expect(() => g.output('missing', 'float32')).toThrow('not defined');
    expect(() => g.toModel()).toThrow('has no outputs');
  });
});
