export { ServicesIndex } from './services-index';
export { ToolGate } from './tool-gate';
export { ServiceAvailabilityMark, useServicesStatus } from './service-mark';
