import type { TensorData } from '../inference';
import type { PipelineStage } from './generation-model';

/**
 * Runs `rows` inputs through a stage in as few runs as its batch dimension allows: all at once when the
 * batch is dynamic, in chunks of the fixed batch otherwise (the last chunk padded by repeating its last row,
 * whose extra outputs are dropped). `feeds` builds the inputs of one chunk from its row indices. Returns the
 * output `outputName` per row, and the milliseconds spent inside onnxruntime.
 */
export async function runRows(
  stage: PipelineStage,
  rows: number,
  feeds: (indices: number[]) => Record<string, TensorData>,
  outputName: string,
  read: (tensor: TensorData) => Float32Array,
): Promise<{ rows: Float32Array[]; ms: number }> {
  const firstDim = stage.signature.inputs[0]?.shape[0];
  const size = typeof firstDim === 'number' && firstDim > 0 ? firstDim : rows;
  const out: Float32Array[] = [];
  let ms = 0;
  for (let start = 0; start < rows; start += size) {
    const indices = Array.from({ length: size }, (_, i) => Math.min(start + i, rows - 1));
    const result = await stage.session.run(feeds(indices), [outputName]);
    ms += result.ms;
    const tensor = result.outputs[outputName];
    if (!tensor) throw new Error(`${stage.session.modelPath} returned no ${outputName}`);
    const values = read(tensor);
    const per = values.length / size;
    for (let i = 0; i < size && start + i < rows; i += 1) out.push(values.slice(i * per, (i + 1) * per));
  }
  return { rows: out, ms };
}

/** Rows stacked into one new array in the order of `indices`, each value multiplied by `scale`. */
export function stack(rows: readonly Float32Array[], indices: readonly number[], scale = 1): Float32Array {
  const per = rows[0]?.length ?? 0;
  const out = new Float32Array(per * indices.length);
  indices.forEach((row, i) => {
    const src = rows[row]!;
    if (scale === 1) out.set(src, i * per);
    else for (let j = 0, o = i * per; j < per; j += 1) out[o + j] = src[j]! * scale;
  });
  return out;
}
