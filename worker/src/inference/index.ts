export * from './runtime';
export * from './precision';
