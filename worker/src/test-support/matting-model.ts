import fs from 'node:fs/promises';
import path from 'node:path';
import { GraphBuilder, type Dim } from '../../../models/onnx';

/**
 * Tiny matting models for the operator-model contract (handlers/custom-matting.ts), built in the test instead of
 * shipped: the matte is a function of each pixel's brightness (the mean of its three normalised channels, times
 * a gain), so on the golden image (a light disc on a dark background) a good model outputs the disc exactly.
 *
 * - `logits`: BiRefNet's form, raw scores that need a sigmoid;
 * - `probabilities`: the same with the sigmoid inside the graph;
 * - `fp16`: float32 input, its values rounded through float16 and a float16 output (an fp16 export with
 *   float32 input, as keep_io_types converts it);
 * - `fp16-input`: a float16 input, which the worker cannot feed;
 * - `three-channel-output`: returns its normalised input, [1,3,H,W] - not a matte;
 * - `inverted`: dark pixels are foreground, so it fails the golden check;
 * - `fixed-512`: a fixed 512 x 512 input, refused where the size setting says 1024.
 */
export type TestMattingKind =
  'logits' | 'probabilities' | 'fp16' | 'fp16-input' | 'three-channel-output' | 'inverted' | 'fixed-512';

const FLOAT = 1;
const FLOAT16 = 10;

export function buildTestMattingModel(kind: TestMattingKind): Uint8Array {
  const g = new GraphBuilder(`test-matting-${kind}`);
  const [h, w]: [Dim, Dim] = kind === 'fixed-512' ? [512, 512] : ['height', 'width'];
  const half = kind === 'fp16';
  g.input('pixels', kind === 'fp16-input' ? 'float16' : 'float32', [1, 3, h, w]);
  if (kind === 'three-channel-output') {
    g.node('Identity', ['pixels'], {}, { output: 'matte' });
    g.output('matte', 'float32', [1, 3, h, w]);
    return g.toModel({ opset: 17 });
  }
  // Through float16 and back: the CPU provider has few float16 kernels, Cast is one of them.
  const x =
    kind === 'fp16-input'
      ? g.node('Cast', ['pixels'], { to: FLOAT })
      : half
        ? g.node('Cast', [g.node('Cast', ['pixels'], { to: FLOAT16 })], { to: FLOAT })
        : 'pixels';
  const brightness = g.node('ReduceMean', [x], { axes: [1], keepdims: 1 });
  const gain = g.float32('gain', [], new Float32Array([kind === 'inverted' ? -8 : 8]));
  const scores = g.node('Mul', [brightness, gain]);
  if (kind === 'probabilities') g.node('Sigmoid', [scores], {}, { output: 'matte' });
  else if (half) g.node('Cast', [scores], { to: FLOAT16 }, { output: 'matte' });
  else g.node('Identity', [scores], {}, { output: 'matte' });
  g.output('matte', half ? 'float16' : 'float32', [1, 1, h, w]);
  return g.toModel({ opset: 17 });
}

/** Writes the model into `dir` as `<kind>.onnx` and returns the file name (relative to `dir`, as the setting is). */
export async function writeTestMattingModel(dir: string, kind: TestMattingKind): Promise<string> {
  const name = `${kind}.onnx`;
  await fs.writeFile(path.join(dir, name), buildTestMattingModel(kind));
  return name;
}
