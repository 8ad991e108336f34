// TF.js (wasm backend) as the reference for converter tests: the ESRGAN custom layers, saving a TF.js model
// into the model.json + shard form the converter reads, and NHWC/NCHW helpers.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { LayersModelJson } from '../convert/tfjs-layers';

let ready: Promise<typeof tf> | undefined;

const single = (inputs: tf.Tensor | tf.Tensor[]): tf.Tensor =>
  Array.isArray(inputs) ? (inputs[0] as tf.Tensor) : inputs;

/** ESRGAN's residual scaling layer: x * beta. */
class MultiplyBeta extends tf.layers.Layer {
  static className = 'MultiplyBeta';
  private readonly beta: number;
  constructor(config: { beta?: number; name?: string } = {}) {
    super(config);
    this.beta = config.beta ?? 0.2;
  }
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.mul(single(inputs), this.beta);
  }
  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), beta: this.beta };
  }
}

/** ESRGAN's sub-pixel upsampling layer: tf.depthToSpace (NHWC). */
function pixelShuffle(scale: number): tf.serialization.SerializableConstructor<tf.layers.Layer> {
  return class PixelShuffle extends tf.layers.Layer {
    static className = `PixelShuffle${scale}x`;
    override computeOutputShape(shape: tf.Shape): tf.Shape {
      const [n, h, w, c] = shape as (number | null)[];
      return [
        n ?? null,
        h == null ? null : h * scale,
        w == null ? null : w * scale,
        c == null ? null : c / (scale * scale),
      ];
    }
    override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
      return tf.depthToSpace(single(inputs) as tf.Tensor4D, scale, 'NHWC');
    }
    override getConfig(): tf.serialization.ConfigDict {
      return { ...super.getConfig(), scale };
    }
  };
}

export const PixelShuffle2x = pixelShuffle(2);
export { MultiplyBeta };

/** TF.js on the wasm backend with the ESRGAN custom layers registered (once per test file). */
export function loadTf(): Promise<typeof tf> {
  ready ??= (async () => {
    tf.serialization.registerClass(MultiplyBeta);
    tf.serialization.registerClass(PixelShuffle2x);
    tf.serialization.registerClass(pixelShuffle(4));
    await tf.setBackend('wasm');
    await tf.ready();
    return tf;
  })();
  return ready;
}

/** Saves a TF.js model in memory as the converter's input: a model.json and its single weight shard. */
export async function saveLayersModel(model: tf.LayersModel): Promise<{ json: LayersModelJson; shard: Uint8Array }> {
  let saved: tf.io.ModelArtifacts | undefined;
  await model.save(
    tf.io.withSaveHandler(async (artifacts) => {
      saved = artifacts;
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }),
  );
  if (!saved?.weightSpecs || !saved.weightData) throw new Error('model.save produced no weights');
  const weightData = saved.weightData;
  const shard = new Uint8Array(Array.isArray(weightData) ? await new Blob(weightData).arrayBuffer() : weightData);
  return {
    json: {
      format: 'layers-model',
      modelTopology: saved.modelTopology as LayersModelJson['modelTopology'],
      weightsManifest: [
        {
          paths: ['weights.bin'],
          weights: saved.weightSpecs.map((w) => ({ name: w.name, shape: w.shape, dtype: w.dtype })),
        },
      ],
    },
    shard,
  };
}

/** Loads a TF.js layers model from a model.json object and a shard reader. */
export async function loadLayersModel(
  json: LayersModelJson,
  readShard: (path: string) => Uint8Array,
): Promise<tf.LayersModel> {
  await loadTf();
  const weightSpecs = json.weightsManifest.flatMap((g) => g.weights) as tf.io.WeightsManifestEntry[];
  const bytes = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map(readShard)));
  const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return tf.loadLayersModel(
    tf.io.fromMemory({ modelTopology: json.modelTopology as unknown as object, weightSpecs, weightData }),
  );
}

/** Runs a TF.js model on an NCHW [1,C,H,W] input and returns its output as NCHW too. */
export function predictNchw(
  model: tf.LayersModel,
  nchw: Float32Array,
  c: number,
  h: number,
  w: number,
): { data: Float32Array; dims: number[] } {
  return tf.tidy(() => {
    const x = tf.tensor4d(nchw, [1, c, h, w]).transpose([0, 2, 3, 1]);
    const y = (model.predict(x) as tf.Tensor4D).transpose([0, 3, 1, 2]);
    return { data: y.dataSync() as Float32Array, dims: y.shape };
  });
}
