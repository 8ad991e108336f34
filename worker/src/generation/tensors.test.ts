import { fromHalfBits, makeTensor, readFloats, toHalfBits } from './tensors';

describe('tensors', () => {
  it('converts floats to half precision and back', () => {
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(65504)).toBe(0x7bff);
    expect(toHalfBits(1e6)).toBe(0x7c00);
    expect(toHalfBits(2 ** -24)).toBe(0x0001);
    expect(fromHalfBits(0x3555)).toBeCloseTo(0.333251953125, 12);
    for (const v of [0, 0.5, -3.25, 14.6146, 1e-5, -0.18215]) expect(fromHalfBits(toHalfBits(v))).toBeCloseTo(v, 2);
  });

  it('builds tensors of the declared type and reads fp16 outputs as floats', () => {
    expect(makeTensor('int64', [999], [1]).data).toEqual(BigInt64Array.from([999n]));
    expect(makeTensor('int32', [1.4, 2.6], [2]).data).toEqual(Int32Array.from([1, 3]));
    const half = makeTensor('float16', [1, -2], [2]);
    expect(Array.from(readFloats(half))).toEqual([1, -2]);
    // onnxruntime's own float16 output where JavaScript has Float16Array (Node 24): values, not bits.
    const values = Float16Array.from([1.5, -2, 0.25]);
    expect(Array.from(readFloats({ type: 'float16', data: values as never, dims: [3] }))).toEqual([1.5, -2, 0.25]);
    expect(() => makeTensor('string', [1], [1])).toThrow(/unsupported/);
  });
});
