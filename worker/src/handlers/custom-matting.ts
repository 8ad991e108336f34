import fs from 'node:fs';
import path from 'node:path';
import type { WorkerConfig } from '../config';
import type { InferenceRuntime, ModelSession } from '../inference';
import type { Logger } from '@imagestudio/runtime';
import { readModelSignature, type ValueSignature } from '../generation/model-signature';
import { type MattingSpec, inferMatte } from '../pipelines/matting-spec';

/**
 * An operator's own background-removal model (models/README.md "Bring your own matting model"), offered as
 * `hq`. Before it is offered it must pass two checks at start: its declared input and output shapes fit the
 * contract, and on a golden image (a light disc on a dark flat background) its matte covers the disc (IoU at
 * least GOLDEN_MIN_IOU). A model that fails is refused with one log line naming the file and what is wrong;
 * the worker keeps serving its standard model, so a bad file costs the `hq` choice, not the whole tool.
 */

/** The least overlap of the golden matte (alpha >= 0.5) with the disc it should cover. */
export const GOLDEN_MIN_IOU = 0.9;
/** How far a "probabilities" output may stray from 0..1 (fp16 rounding) before it is taken for logits. */
const PROBABILITY_SLACK = 0.01;

export interface CustomMatting {
  session: ModelSession;
  spec: MattingSpec;
  /** The golden check's IoU, for the start log. */
  iou: number;
}

/** Thrown for a model that breaks the contract: the message is the whole reason, without the file name. */
class ContractError extends Error {}

/** A dimension the contract allows: the wanted size, or a dynamic one (a name, or unnamed). */
const fits = (dim: number | string | undefined, wanted: number) => typeof dim === 'string' || dim === wanted;
const shapeText = (v: ValueSignature) => `[${v.shape.map((d) => (d === '' ? '?' : d)).join(',')}]`;

/** Checks the declared graph inputs and outputs and returns how to feed the model. */
export function specFromSignature(
  id: string,
  signature: { inputs: ValueSignature[]; outputs: ValueSignature[] },
  config: Pick<
    WorkerConfig,
    | 'WORKER_MATTING_MODEL_SIZE'
    | 'WORKER_MATTING_MODEL_MEAN'
    | 'WORKER_MATTING_MODEL_STD'
    | 'WORKER_MATTING_MODEL_OUTPUT'
  >,
): MattingSpec {
  const size = config.WORKER_MATTING_MODEL_SIZE;
  const { inputs, outputs } = signature;
  if (inputs.length !== 1) throw new ContractError(`has ${inputs.length} inputs, expected one image input`);
  const input = inputs[0]!;
  const [n, c, h, w] = input.shape;
  if (input.shape.length !== 4 || !fits(n, 1) || c !== 3 || !fits(h, size) || !fits(w, size))
    throw new ContractError(`input ${input.name} is ${shapeText(input)}, expected [1,3,${size},${size}]`);
  // onnxruntime-node 1.30 cannot take a float16 input tensor from JavaScript on Node 24 (its binding reads a
  // Float16Array as empty), so an fp16 model must keep float32 input and output, as keep_io_types converts it.
  if (input.type !== 'float32')
    throw new ContractError(
      `input ${input.name} is ${input.type}, expected float32 (convert an fp16 model with keep_io_types)`,
    );
  const output = outputs[0];
  if (!output) throw new ContractError('has no output');
  const [on, oc, oh, ow] = output.shape;
  // Unknown output shapes (shape inference left them out) are checked on the golden run instead.
  if (
    output.shape.length > 0 &&
    (output.shape.length !== 4 || !fits(on, 1) || !fits(oc, 1) || !fits(oh, size) || !fits(ow, size))
  )
    throw new ContractError(`output ${output.name} is ${shapeText(output)}, expected [1,1,${size},${size}]`);
  // Per channel on 0..255 values: the settings are on 0..1, as PyTorch's transforms take them.
  const [mr, mg, mb] = config.WORKER_MATTING_MODEL_MEAN;
  const [sr, sg, sb] = config.WORKER_MATTING_MODEL_STD;
  return {
    id,
    width: size,
    height: size,
    input: input.name,
    output: output.name,
    mean: [mr * 255, mg * 255, mb * 255],
    std: [sr * 255, sg * 255, sb * 255],
    outputKind: config.WORKER_MATTING_MODEL_OUTPUT,
  };
}

/** The golden image: RGB bytes, a light disc (radius 30% of the side) centred on a dark flat background. */
export function goldenImage(size: number): { rgb: Buffer; disc: Uint8Array } {
  const rgb = Buffer.alloc(size * size * 3);
  const disc = new Uint8Array(size * size);
  const r = size * 0.3;
  const centre = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      const inside = (x - centre) ** 2 + (y - centre) ** 2 <= r * r;
      disc[i] = inside ? 1 : 0;
      // A warm off-white subject on charcoal: a plain, high-contrast salient object for any matting model.
      rgb.set(inside ? [236, 226, 208] : [38, 40, 44], i * 3);
    }
  }
  return { rgb, disc };
}

/** Overlap (intersection over union) of the matte's foreground (>= 0.5) with the disc. */
export function discIou(matte: Float32Array, disc: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < disc.length; i++) {
    const fg = matte[i]! >= 0.5;
    if (fg && disc[i]) both++;
    if (fg || disc[i]) either++;
  }
  return either === 0 ? 0 : both / either;
}

/** Runs the golden image through a loaded model; throws a ContractError saying what is wrong. */
export async function goldenCheck(session: ModelSession, spec: MattingSpec): Promise<number> {
  const { rgb, disc } = goldenImage(spec.width);
  let run;
  try {
    run = await inferMatte(session, spec, rgb);
  } catch (err) {
    throw new ContractError(`fails on a ${spec.width}x${spec.height} input: ${(err as Error).message.split('\n')[0]}`);
  }
  const [min, max] = run.range;
  if (spec.outputKind === 'probabilities' && (min < -PROBABILITY_SLACK || max > 1 + PROBABILITY_SLACK))
    throw new ContractError(
      `outputs values from ${min.toFixed(2)} to ${max.toFixed(2)}, not probabilities 0..1 (set WORKER_MATTING_MODEL_OUTPUT=logits if they are logits)`,
    );
  const iou = discIou(run.matte, disc);
  if (iou < GOLDEN_MIN_IOU)
    throw new ContractError(
      `fails the golden check: its matte of a plain disc overlaps the disc by IoU ${iou.toFixed(3)}, at least ${GOLDEN_MIN_IOU} needed (check WORKER_MATTING_MODEL_MEAN, _STD and _OUTPUT)`,
    );
  return iou;
}

/**
 * Loads and checks WORKER_MATTING_MODEL_FILE. Null when none is set or the model is refused; a refusal is
 * logged as one error line naming the file and the reason, and nothing of the model stays loaded.
 */
export async function loadCustomMatting(
  config: WorkerConfig,
  runtime: InferenceRuntime,
  logger: Logger,
): Promise<CustomMatting | null> {
  const name = config.WORKER_MATTING_MODEL_FILE;
  if (!name) return null;
  const file = path.resolve(config.MODELS_DIR, name);
  let session: ModelSession | undefined;
  try {
    if (!fs.existsSync(file)) throw new ContractError('is not there');
    let signature;
    try {
      signature = await readModelSignature(file);
    } catch {
      throw new ContractError('is not an ONNX model');
    }
    const spec = specFromSignature(name, signature, config);
    session = await runtime.load(file);
    const iou = await goldenCheck(session, spec);
    logger.info(
      { tool: 'remove-background', model: 'hq', file, provider: session.provider, iou: Number(iou.toFixed(3)) },
      'hq matting model passed its checks',
    );
    return { session, spec, iou };
  } catch (err) {
    await session?.release().catch(() => undefined);
    const reason =
      err instanceof ContractError ? err.message : `cannot be loaded: ${(err as Error).message.split('\n')[0]}`;
    logger.error({ tool: 'remove-background', file }, `hq matting model refused: ${file} ${reason}`);
    return null;
  }
}
