// Jest's node environment runs tests in a separate realm, so typed arrays created by onnxruntime-node's native
// code (outer realm) fail its `instanceof Float32Array` checks. Sharing the outer realm's typed array
// constructors with the test realm fixes that.
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'ArrayBuffer',
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];

class SharedTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = SharedTypedArraysEnvironment;
