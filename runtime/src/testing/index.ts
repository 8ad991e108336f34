export * from './test-env';
export { blockOutboundNetwork } from './block-network';
