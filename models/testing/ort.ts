// onnxruntime-node for tests only (in the product only worker/src/inference imports it).
import * as ort from 'onnxruntime-node';

/**
 * Creates a session from a path or ONNX bytes with the worker's CPU settings: sequential execution,
 * intra-op threads = cores, one inter-op thread.
 */
export function createSession(model: string | Uint8Array): Promise<ort.InferenceSession> {
  const options: ort.InferenceSession.SessionOptions = {
    executionMode: 'sequential',
    intraOpNumThreads: 2,
    interOpNumThreads: 1,
  };
  return typeof model === 'string'
    ? ort.InferenceSession.create(model, options)
    : ort.InferenceSession.create(model, options);
}

/** Runs a single-input, single-output float32 model once. */
export async function runOnnx(
  model: string | Uint8Array,
  input: Float32Array,
  dims: number[],
): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const session = await createSession(model);
  try {
    const [inputName] = session.inputNames;
    const [outputName] = session.outputNames;
    const result = await session.run({ [inputName as string]: new ort.Tensor('float32', input, dims) });
    const out = result[outputName as string] as ort.Tensor;
    return { data: out.data as Float32Array, dims: out.dims };
  } finally {
    await session.release();
  }
}
