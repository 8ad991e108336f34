export * from './envelope';
export * from './constants';
export * from './tokens';
export * from './password';
export * from './queue';
export * from './currency';
