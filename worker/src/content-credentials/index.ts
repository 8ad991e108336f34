export { ContentCredentials, type ResultSigning } from './content-credentials';
export type { ResultProvenance } from './plan';
