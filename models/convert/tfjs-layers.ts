// Converts a TF.js layers model (model.json + weight shards) of the ESRGAN family to ONNX: NHWC Keras layers
// become NCHW ONNX ops, with kernels permuted HWIO -> OIHW. Supported layers: InputLayer, Conv2D (stride 1,
// no dilation, 'same' or 'valid'), Activation, Concatenate, Add, UpSampling2D (nearest), and the ESRGAN custom
// layers MultiplyBeta (x * beta) and PixelShuffle<N>x (TF depth_to_space = ONNX DepthToSpace mode DCR).
// Anything else is refused with the layer's name rather than converted approximately.
// One rewrite, exact up to float rounding: a nearest UpSampling2D whose only consumer is a 'same' Conv2D
// becomes a convolution at the low resolution followed by DepthToSpace (foldUpsampleIntoConv).
import { type Dim, GraphBuilder } from '../onnx';
import { type Conversion, convertLayer, type Emit } from './keras-layers';
import {
  type ConvertedModel,
  type ConvertOptions,
  type KerasLayer,
  type LayersModelJson,
  type ModelConfig,
  UnsupportedLayerError,
  type Value,
  readWeights,
} from './keras-model';

export { hwioToOihw, type ConvertedModel, type ConvertOptions, type LayersModelJson } from './keras-model';

/** The ONNX opset the converted models declare. */
const OPSET = 17;

/** Converts a TF.js layers model with its weights into an NCHW float32 ONNX model with dynamic height/width. */
export function convertLayersModel(
  model: LayersModelJson,
  readShard: (path: string) => Uint8Array,
  options: ConvertOptions = {},
): ConvertedModel {
  if (model.format && model.format !== 'layers-model')
    throw new Error(`expected a layers-model, got "${model.format}"`);
  const topology = 'model_config' in model.modelTopology ? model.modelTopology.model_config : model.modelTopology;
  const { config } = topology;
  if (config.input_layers.length !== 1 || config.output_layers.length !== 1)
    throw new Error('only single-input, single-output models are supported');
  const weights = readWeights(model.weightsManifest, readShard);
  const used = new Set<string>();
  const inputName = options.inputName ?? 'input';
  const outputName = options.outputName ?? 'output';
  const [inputLayerName] = config.input_layers[0] as [string, number, number];
  const [outputLayerName] = config.output_layers[0] as [string, number, number];
  const g = new GraphBuilder(config.name ?? 'model');
  const ops: Record<string, number> = {};
  const emit: Emit = (op, inputs, attrs, output) => {
    ops[op] = (ops[op] ?? 0) + 1;
    return g.node(op, inputs, attrs, output ? { output } : {});
  };
  const conversion: Conversion = {
    g,
    emit,
    weight(layer, suffix) {
      const w = weights.get(`${layer.name}/${suffix}`);
      if (!w) throw new UnsupportedLayerError(layer, `weight ${layer.name}/${suffix} not found`);
      used.add(`${layer.name}/${suffix}`);
      return w;
    },
    consumers: consumersOf(config),
    inputName,
    inputLayerName,
  };
  const values = convertLayers(conversion, config, outputLayerName, outputName);

  const final = values.get(outputLayerName);
  if (!final) throw new Error(`output layer ${outputLayerName} was not converted`);
  if (final.name !== outputName) throw new Error(`output layer ${outputLayerName} is not the last op writing it`);
  const unused = [...weights.keys()].filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`weights not used by any layer: ${unused.slice(0, 5).join(', ')}`);
  const outShape: Dim[] = [1, final.channels, `height*${final.scale}`, `width*${final.scale}`];
  g.output(outputName, 'float32', outShape);
  const onnx = g.toModel({
    opset: OPSET,
    producerName: 'imagestudio-models tfjs-layers converter',
    docString: options.docString ?? '',
    metadata: options.metadata,
  });
  return {
    onnx,
    inputName,
    outputName,
    inputChannels: (values.get(inputLayerName) as Value).channels,
    outputChannels: final.channels,
    scale: final.scale,
    receptiveRadius: Math.ceil(final.radius),
    ops,
  };
}

/** Who reads each layer's output. */
function consumersOf(config: ModelConfig['config']): Map<string, KerasLayer[]> {
  const consumers = new Map<string, KerasLayer[]>();
  for (const layer of config.layers) {
    for (const [name] of layer.inbound_nodes[0] ?? []) consumers.set(name, [...(consumers.get(name) ?? []), layer]);
  }
  return consumers;
}

/** Every layer in the file's order, each reading values its inputs became; the value of each layer by name. */
function convertLayers(
  c: Conversion,
  config: ModelConfig['config'],
  outputLayerName: string,
  outputName: string,
): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const layer of config.layers) {
    if (layer.inbound_nodes.length > 1)
      throw new UnsupportedLayerError(layer, 'shared layers (called more than once) are not supported');
    const inbound = (layer.inbound_nodes[0] ?? []).map(([name, nodeIndex, tensorIndex]) => {
      const v = values.get(name);
      if (!v || nodeIndex !== 0 || tensorIndex !== 0)
        throw new UnsupportedLayerError(layer, `input ${name}[${nodeIndex}][${tensorIndex}] is not available`);
      return v;
    });
    // The model's output layer writes straight to the ONNX output name.
    const out = layer.name === outputLayerName ? outputName : undefined;
    values.set(layer.name, convertLayer(c, { layer, inbound, out }));
  }
  return values;
}
