export { ServicesIndex } from './services-index';
export { ToolGate } from './tool-gate';
export { ServiceAvailabilityMark, useServicesStatus } from './service-mark';
export { ToolOffCard } from './tool-unavailable';
export { ToolsOffNotice } from './tools-off-notice';
export { imageToolsOnly } from './availability';
export { useToolStatus } from './use-status-refresh';
