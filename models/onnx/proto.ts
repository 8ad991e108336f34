// The subset of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto) needed to write and read models, as a
// protobufjs JSON descriptor. Field numbers follow the ONNX spec; everything not listed is skipped on decode.
import * as protobuf from 'protobufjs';

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });

const descriptor = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            refAttrName: { type: 'string', id: 21 },
            docString: { type: 'string', id: 13 },
            type: { type: 'AttributeType', id: 20 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            g: { type: 'GraphProto', id: 6 },
            floats: repeated('float', 7),
            ints: repeated('int64', 8),
            strings: repeated('bytes', 9),
            tensors: repeated('TensorProto', 10),
            graphs: repeated('GraphProto', 11),
          },
          nested: {
            AttributeType: {
              values: {
                UNDEFINED: 0,
                FLOAT: 1,
                INT: 2,
                STRING: 3,
                TENSOR: 4,
                GRAPH: 5,
                FLOATS: 6,
                INTS: 7,
                STRINGS: 8,
                TENSORS: 9,
                GRAPHS: 10,
              },
            },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
            docString: { type: 'string', id: 3 },
          },
        },
        NodeProto: {
          fields: {
            input: repeated('string', 1),
            output: repeated('string', 2),
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            domain: { type: 'string', id: 7 },
            attribute: repeated('AttributeProto', 5),
            docString: { type: 'string', id: 6 },
          },
        },
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            opsetImport: repeated('OperatorSetIdProto', 8),
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            metadataProps: repeated('StringStringEntryProto', 14),
          },
        },
        GraphProto: {
          fields: {
            node: repeated('NodeProto', 1),
            name: { type: 'string', id: 2 },
            initializer: repeated('TensorProto', 5),
            docString: { type: 'string', id: 10 },
            input: repeated('ValueInfoProto', 11),
            output: repeated('ValueInfoProto', 12),
            valueInfo: repeated('ValueInfoProto', 13),
          },
        },
        TensorProto: {
          fields: {
            dims: repeated('int64', 1),
            dataType: { type: 'int32', id: 2 },
            floatData: { ...repeated('float', 4), options: { packed: true } },
            int32Data: { ...repeated('int32', 5), options: { packed: true } },
            stringData: repeated('bytes', 6),
            int64Data: { ...repeated('int64', 7), options: { packed: true } },
            name: { type: 'string', id: 8 },
            docString: { type: 'string', id: 12 },
            rawData: { type: 'bytes', id: 9 },
            doubleData: { ...repeated('double', 10), options: { packed: true } },
            uint64Data: { ...repeated('uint64', 11), options: { packed: true } },
          },
        },
        TensorShapeProto: {
          fields: { dim: repeated('Dimension', 1) },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
              fields: {
                dimValue: { type: 'int64', id: 1 },
                dimParam: { type: 'string', id: 2 },
                denotation: { type: 'string', id: 3 },
              },
            },
          },
        },
        TypeProto: {
          fields: { tensorType: { type: 'Tensor', id: 1 }, denotation: { type: 'string', id: 6 } },
          nested: {
            Tensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);

/** protobufjs type of onnx.ModelProto (encode/decode/toObject). */
export const ModelProto = root.lookupType('onnx.ModelProto');

/** onnx.TensorProto.DataType values. */
export const DATA_TYPES = {
  float32: 1,
  uint8: 2,
  int8: 3,
  uint16: 4,
  int16: 5,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
  uint32: 12,
  uint64: 13,
} as const;

export type DataType = keyof typeof DATA_TYPES;

/** onnx.AttributeProto.AttributeType values. */
export const ATTRIBUTE_TYPES = {
  FLOAT: 1,
  INT: 2,
  STRING: 3,
  TENSOR: 4,
  GRAPH: 5,
  FLOATS: 6,
  INTS: 7,
  STRINGS: 8,
  TENSORS: 9,
  GRAPHS: 10,
} as const;
