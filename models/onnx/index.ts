// Public API of the ONNX writer: the graph builder and the proto types it uses.
export * from './builder';
export { DATA_TYPES, type DataType } from './proto';
