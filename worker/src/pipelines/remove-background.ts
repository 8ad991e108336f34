import sharp from 'sharp';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { type DecodedImage, decodeImage } from '../imaging/decode';
import { encodeImage } from '../imaging/encode';
import { compositeAlpha, decontaminateEdges, guidedFilterAlpha, maskToBytes, toNchw } from '../imaging/matting';
import { refineMatte } from '../imaging/matte-refinement';

/**
 * Background removal from decoded pixels to encoded bytes; the job handler adds S3, progress and cancellation,
 * the benchmark calls it directly. `step(stage)` is awaited between stages.
 */

export type EdgeRefinement = 'none' | 'guided' | 'decontaminate' | 'guided-decontaminate';

/** Chosen by the measured comparison in worker/README.md ("Edge refinement"). */
export const DEFAULT_EDGE_REFINEMENT: EdgeRefinement = 'decontaminate';

export interface RemoveBackgroundOptions {
  outputFormat: 'png' | 'webp';
  backgroundColor?: string;
  maskOnly?: boolean;
  refinement?: EdgeRefinement;
}

export interface PipelineOutput {
  data: Buffer;
  width: number;
  height: number;
  /** The refined alpha (one byte per pixel), for tests and comparisons. */
  alpha: Buffer;
  timings: Record<string, number>;
}

type Step = (stage: string) => Promise<void>;

/** Runs the matting model on an image and returns its alpha at the image's size (unrefined). */
export async function predictAlpha(
  session: ModelRunner,
  model: ModelEntry,
  image: DecodedImage,
  timings: Record<string, number> = {},
): Promise<Buffer> {
  const pre = model.preprocessing;
  if (pre.kind !== 'matting') throw new Error(`${model.id} is not a matting model`);
  let t = performance.now();
  // The model was trained on images stretched to its square input; aspect is restored when resizing back.
  const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .resize(pre.width, pre.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const input = toNchw(resized, pre.width, pre.height, 3, pre);
  timings.prepare = (timings.prepare ?? 0) + performance.now() - t;
  t = performance.now();
  const { outputs, ms } = await session.run(
    { [model.inputs[0]!.name]: { type: 'float32', data: input, dims: [1, 3, pre.height, pre.width] } },
    [pre.maskOutput],
  );
  timings.infer = performance.now() - t;
  timings.inferBare = ms;
  t = performance.now();
  const mask = outputs[pre.maskOutput]!.data as Float32Array;
  const alpha = await sharp(maskToBytes(mask), { raw: { width: pre.width, height: pre.height, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  timings.postprocess = performance.now() - t;
  return alpha;
}

/** Decode -> model -> refine -> composite -> encode. */
export async function removeBackground(
  session: ModelRunner,
  model: ModelEntry,
  input: Buffer,
  options: RemoveBackgroundOptions,
  step: Step = async () => undefined,
): Promise<PipelineOutput> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  timings.decode = performance.now() - t;
  await step('prepared');
  let alpha = await predictAlpha(session, model, image, timings);
  await step('inferred');
  t = performance.now();
  alpha = refineMatte(alpha, image); // solid subjects stay solid, far specks go (worker/README.md "Matte refinement")
  const refinement = options.refinement ?? DEFAULT_EDGE_REFINEMENT;
  const rgba = image.data;
  if (refinement === 'guided' || refinement === 'guided-decontaminate') {
    // Radius scales with the image so the filter sees the same neighbourhood at any resolution.
    const r = Math.max(2, Math.round(Math.max(image.width, image.height) / 256));
    alpha = guidedFilterAlpha(rgba, alpha, image.width, image.height, r, 1e-4);
  }
  // Edge pixels get their foreground colour back, so neither transparency nor a new background shows a halo.
  if ((refinement === 'decontaminate' || refinement === 'guided-decontaminate') && !options.maskOnly)
    decontaminateEdges(rgba, alpha, image.width, image.height);
  timings.refine = performance.now() - t;
  t = performance.now();
  let data: Buffer;
  if (options.maskOnly) {
    data = await encodeImage(
      { data: alpha, width: image.width, height: image.height, channels: 1 },
      options.outputFormat,
      'compositeWithTrainedAlgorithmicMedia',
      'Image Studio background removal',
    );
  } else {
    const composed = compositeAlpha(rgba, alpha, image.width, image.height, {
      backgroundColor: options.backgroundColor,
    });
    data = await encodeImage(
      { data: composed.data, width: image.width, height: image.height, channels: composed.channels },
      options.outputFormat,
      'compositeWithTrainedAlgorithmicMedia',
      'Image Studio background removal',
    );
  }
  timings.encode = performance.now() - t;
  await step('encoded');
  return { data, width: image.width, height: image.height, alpha, timings };
}
