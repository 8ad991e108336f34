// A small ONNX graph builder: declare inputs, initializers and nodes (any op type with its attributes), mark
// outputs, and serialise to ONNX protobuf bytes that onnxruntime loads. See models/README.md, 'ONNX graph builder'.
import { ATTRIBUTE_TYPES, DATA_TYPES, type DataType, ModelProto } from './proto';

/** A tensor dimension: a fixed size or a symbolic (dynamic) name such as 'H'. */
export type Dim = number | string;

/** Element storage accepted for a tensor of each data type. */
export type TensorData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | readonly number[]
  | readonly bigint[];

/** A constant tensor, for initializers and TENSOR attributes. */
export interface Tensor {
  type: DataType;
  dims: readonly number[];
  /** For float16 pass the raw half-float bits as a Uint16Array. For bool, 0/1 values in a Uint8Array or array. */
  data: TensorData;
}

/** Explicitly typed attribute values, for when inference from a JS value is ambiguous (e.g. a float 1.0). */
export type TypedAttribute =
  | { kind: 'float'; value: number }
  | { kind: 'floats'; value: readonly number[] }
  | { kind: 'int'; value: number }
  | { kind: 'ints'; value: readonly number[] }
  | { kind: 'tensor'; value: Tensor }
  | { kind: 'graph'; value: GraphBuilder };

/**
 * An attribute value. Plain values are typed by shape: integer number -> INT, other number -> FLOAT,
 * string -> STRING, number[] -> INTS if all are integers else FLOATS, string[] -> STRINGS. Use float(),
 * floats(), int(), ints(), tensorAttr() and graphAttr() to force a type.
 */
export type AttributeValue = number | string | readonly number[] | readonly string[] | TypedAttribute;

export const float = (value: number): TypedAttribute => ({ kind: 'float', value });
export const floats = (value: readonly number[]): TypedAttribute => ({ kind: 'floats', value });
export const int = (value: number): TypedAttribute => ({ kind: 'int', value });
export const ints = (value: readonly number[]): TypedAttribute => ({ kind: 'ints', value });
export const tensorAttr = (value: Tensor): TypedAttribute => ({ kind: 'tensor', value });
/** A subgraph attribute (If/Loop/Scan bodies). */
export const graphAttr = (value: GraphBuilder): TypedAttribute => ({ kind: 'graph', value });

export interface NodeOptions {
  /** Node name (default: `<opType>_<n>`). */
  name?: string;
  /** Operator domain ('' = default ONNX domain, 'com.microsoft' for onnxruntime contrib ops). */
  domain?: string;
}

export interface ModelOptions {
  /** Default-domain opset version (default 17). */
  opset?: number;
  /** Extra opset imports, e.g. { 'com.microsoft': 1 }. */
  extraOpsets?: Record<string, number>;
  /** ONNX IR version (default 8, which covers opsets up to 17; use 9 for 18-20, 10 for 21). */
  irVersion?: number;
  producerName?: string;
  producerVersion?: string;
  docString?: string;
  /** Free-form key/value metadata stored in the model. */
  metadata?: Record<string, string>;
}

interface ValueInfo {
  name: string;
  type: DataType;
  shape?: readonly Dim[];
}

interface NodeRecord {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes: Record<string, AttributeValue>;
  name: string;
  domain: string;
}

const isTyped = (v: AttributeValue): v is TypedAttribute =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v;

function tensorToProto(name: string, tensor: Tensor): Record<string, unknown> {
  const count = tensor.dims.reduce((a, b) => a * b, 1);
  if (tensor.data.length !== count) {
    throw new Error(
      `tensor ${name || '(attribute)'}: ${tensor.data.length} values for dims [${tensor.dims.join(', ')}] (${count} expected)`,
    );
  }
  return { name, dims: [...tensor.dims], dataType: DATA_TYPES[tensor.type], rawData: rawBytes(tensor) };
}

/** Little-endian bytes of the tensor's elements, as ONNX raw_data stores them. */
function rawBytes(tensor: Tensor): Uint8Array {
  const data = tensor.data;
  const typed = ((): ArrayBufferView => {
    switch (tensor.type) {
      case 'float32':
        return data instanceof Float32Array ? data : Float32Array.from(data as readonly number[]);
      case 'float64':
        return data instanceof Float64Array ? data : Float64Array.from(data as readonly number[]);
      case 'float16':
      case 'uint16':
        return data instanceof Uint16Array ? data : Uint16Array.from(data as readonly number[]);
      case 'int16':
        return data instanceof Int16Array ? data : Int16Array.from(data as readonly number[]);
      case 'int8':
        return data instanceof Int8Array ? data : Int8Array.from(data as readonly number[]);
      case 'uint8':
      case 'bool':
        return data instanceof Uint8Array ? data : Uint8Array.from(data as readonly number[]);
      case 'int32':
        return data instanceof Int32Array ? data : Int32Array.from(data as readonly number[]);
      case 'uint32':
        return data instanceof Uint32Array ? data : Uint32Array.from(data as readonly number[]);
      case 'int64':
        return data instanceof BigInt64Array
          ? data
          : BigInt64Array.from(Array.from(data as ArrayLike<number | bigint>, (v) => BigInt(v)));
      case 'uint64':
        return data instanceof BigUint64Array
          ? data
          : BigUint64Array.from(Array.from(data as ArrayLike<number | bigint>, (v) => BigInt(v)));
    }
  })();
  // Typed arrays use the platform's byte order; every platform Node supports here is little-endian.
  return new Uint8Array(typed.buffer.slice(typed.byteOffset, typed.byteOffset + typed.byteLength));
}

function attributeToProto(name: string, value: AttributeValue): Record<string, unknown> {
  if (isTyped(value)) {
    switch (value.kind) {
      case 'float':
        return { name, type: ATTRIBUTE_TYPES.FLOAT, f: value.value };
      case 'floats':
        return { name, type: ATTRIBUTE_TYPES.FLOATS, floats: [...value.value] };
      case 'int':
        return { name, type: ATTRIBUTE_TYPES.INT, i: checkInt(name, value.value) };
      case 'ints':
        return { name, type: ATTRIBUTE_TYPES.INTS, ints: value.value.map((v) => checkInt(name, v)) };
      case 'tensor':
        return { name, type: ATTRIBUTE_TYPES.TENSOR, t: tensorToProto('', value.value) };
      case 'graph':
        return { name, type: ATTRIBUTE_TYPES.GRAPH, g: value.value.toGraphProto() };
    }
  }
  if (typeof value === 'string') return { name, type: ATTRIBUTE_TYPES.STRING, s: Buffer.from(value, 'utf8') };
  if (typeof value === 'number') {
    return Number.isInteger(value)
      ? { name, type: ATTRIBUTE_TYPES.INT, i: value }
      : { name, type: ATTRIBUTE_TYPES.FLOAT, f: value };
  }
  if (value.length > 0 && value.every((v) => typeof v === 'string')) {
    return {
      name,
      type: ATTRIBUTE_TYPES.STRINGS,
      strings: (value as readonly string[]).map((v) => Buffer.from(v, 'utf8')),
    };
  }
  const numbers = value as readonly number[];
  return numbers.every((v) => Number.isInteger(v))
    ? { name, type: ATTRIBUTE_TYPES.INTS, ints: [...numbers] }
    : { name, type: ATTRIBUTE_TYPES.FLOATS, floats: [...numbers] };
}

function checkInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v)) throw new Error(`attribute ${name}: ${v} is not an integer`);
  return v;
}

function valueInfoToProto(info: ValueInfo): Record<string, unknown> {
  const tensorType: Record<string, unknown> = { elemType: DATA_TYPES[info.type] };
  if (info.shape) {
    tensorType.shape = { dim: info.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) };
  }
  return { name: info.name, type: { tensorType } };
}

/**
 * Builds one ONNX graph. Names are checked as you go: every node input must already be a graph input, an
 * initializer or an earlier node's output (or '' for an omitted optional input), and names are unique.
 */
export class GraphBuilder {
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];
  private readonly initializers: { name: string; tensor: Tensor }[] = [];
  private readonly nodes: NodeRecord[] = [];
  private readonly defined = new Set<string>();
  private readonly nodeNames = new Set<string>();
  private counter = 0;

  /**
   * @param name graph name
   * @param outerScope names visible from an enclosing graph (for If/Loop bodies that use outer values)
   */
  constructor(
    readonly name = 'graph',
    outerScope: Iterable<string> = [],
  ) {
    for (const n of outerScope) this.defined.add(n);
  }

  /** Declares a graph input; `shape` dims may be symbolic names for dynamic sizes. Returns its name. */
  input(name: string, type: DataType, shape?: readonly Dim[]): string {
    this.define(name);
    this.inputs.push({ name, type, shape });
    return name;
  }

  /** Adds a constant (weights, shapes, scales). Returns its name. */
  initializer(name: string, tensor: Tensor): string {
    this.define(name);
    // Validate now so a bad size fails where it was written, not at serialisation.
    tensorToProto(name, tensor);
    this.initializers.push({ name, tensor });
    return name;
  }

  /** A float32 initializer from values and dims. */
  float32(name: string, dims: readonly number[], data: Float32Array | readonly number[]): string {
    return this.initializer(name, { type: 'float32', dims, data });
  }

  /** A 1-D int64 initializer (Reshape shapes, Slice starts, axes...). */
  int64(name: string, values: readonly (number | bigint)[]): string {
    return this.initializer(name, { type: 'int64', dims: [values.length], data: values.map((v) => BigInt(v)) });
  }

  /** Adds a node with one output and returns that output's name (`output` or a generated unique name). */
  node(
    opType: string,
    inputs: readonly string[],
    attributes: Record<string, AttributeValue> = {},
    options: NodeOptions & { output?: string } = {},
  ): string {
    const [out] = this.nodeMulti(opType, inputs, [options.output ?? this.fresh(opType)], attributes, options);
    return out as string;
  }

  /** Adds a node with several outputs (a count for generated names, or the names) and returns their names. */
  nodeMulti(
    opType: string,
    inputs: readonly string[],
    outputs: number | readonly string[],
    attributes: Record<string, AttributeValue> = {},
    options: NodeOptions = {},
  ): string[] {
    const name = options.name ?? `${opType}_${this.nodes.length}`;
    if (this.nodeNames.has(name)) throw new Error(`duplicate node name "${name}"`);
    for (const input of inputs) {
      if (input !== '' && !this.defined.has(input))
        throw new Error(`node ${name} (${opType}): input "${input}" is not defined yet`);
    }
    const outNames =
      typeof outputs === 'number' ? Array.from({ length: outputs }, () => this.fresh(opType)) : [...outputs];
    for (const out of outNames) this.define(out);
    this.nodeNames.add(name);
    this.nodes.push({ opType, inputs: [...inputs], outputs: outNames, attributes, name, domain: options.domain ?? '' });
    return outNames;
  }

  /** Marks an existing value as a graph output (with its type and optionally shape). */
  output(name: string, type: DataType, shape?: readonly Dim[]): string {
    if (!this.defined.has(name)) throw new Error(`output "${name}" is not defined`);
    if (this.outputs.some((o) => o.name === name)) throw new Error(`"${name}" is already an output`);
    this.outputs.push({ name, type, shape });
    return name;
  }

  /** Number of nodes so far. */
  get nodeCount(): number {
    return this.nodes.length;
  }

  /** The graph as a plain onnx.GraphProto object (for protobufjs). */
  toGraphProto(): Record<string, unknown> {
    if (this.outputs.length === 0) throw new Error(`graph ${this.name} has no outputs`);
    return {
      name: this.name,
      input: this.inputs.map(valueInfoToProto),
      output: this.outputs.map(valueInfoToProto),
      initializer: this.initializers.map((i) => tensorToProto(i.name, i.tensor)),
      node: this.nodes.map((n) => ({
        name: n.name,
        opType: n.opType,
        domain: n.domain,
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attributes).map(([k, v]) => attributeToProto(k, v)),
      })),
    };
  }

  /** Serialises the graph as an ONNX model (protobuf bytes). */
  toModel(options: ModelOptions = {}): Uint8Array {
    const opsetImport = [{ domain: '', version: options.opset ?? 17 }];
    for (const [domain, version] of Object.entries(options.extraOpsets ?? {})) opsetImport.push({ domain, version });
    const model = {
      irVersion: options.irVersion ?? 8,
      opsetImport,
      producerName: options.producerName ?? 'imagestudio-models',
      producerVersion: options.producerVersion ?? '1',
      docString: options.docString ?? '',
      graph: this.toGraphProto(),
      metadataProps: Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
    };
    const err = ModelProto.verify(model);
    if (err) throw new Error(`invalid ONNX model: ${err}`);
    return ModelProto.encode(ModelProto.fromObject(model)).finish();
  }

  private define(name: string): void {
    if (name === '') throw new Error('value names must not be empty');
    if (this.defined.has(name)) throw new Error(`value "${name}" is already defined`);
    this.defined.add(name);
  }

  private fresh(opType: string): string {
    let name: string;
    do name = `${opType.toLowerCase()}_${this.counter++}`;
    while (this.defined.has(name));
    return name;
  }
}

/** Decodes ONNX bytes into a plain object (int64 as numbers, bytes as Buffers) for inspection and tests. */
export function decodeModel(bytes: Uint8Array): DecodedModel {
  return ModelProto.toObject(ModelProto.decode(bytes), {
    longs: Number,
    defaults: false,
    arrays: true,
  }) as DecodedModel;
}

export interface DecodedModel {
  irVersion?: number;
  opsetImport: { domain?: string; version: number }[];
  producerName?: string;
  metadataProps?: { key: string; value: string }[];
  graph: {
    name?: string;
    node: {
      name?: string;
      opType: string;
      domain?: string;
      input: string[];
      output: string[];
      attribute: {
        name: string;
        type: number;
        f?: number;
        i?: number;
        s?: Buffer;
        ints?: number[];
        floats?: number[];
      }[];
    }[];
    initializer: { name: string; dims: number[]; dataType: number; rawData?: Buffer }[];
    input: { name: string }[];
    output: { name: string }[];
  };
}
