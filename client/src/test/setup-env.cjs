// jsdom lacks TextEncoder/TextDecoder, which react-router needs (stack-notes.md).
const { TextEncoder, TextDecoder } = require('node:util');
Object.assign(globalThis, { TextEncoder, TextDecoder });
