// Loaded by every Node jest project before its tests (jest.node.cjs: setupFiles).
import { blockOutboundNetwork } from './block-network';

blockOutboundNetwork();
