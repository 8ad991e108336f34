export * from './test-env';
export { blockOutboundNetwork } from './block-network';
export { freePort } from './free-port';
export { startPrivateRedis, type PrivateRedis } from './private-redis';
export { heifEnc } from './heif-enc';
export { pdfText } from './pdf-text';
