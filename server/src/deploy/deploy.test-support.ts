import fs from 'node:fs';
import { fromProjectRoot, processEnv, queueEnv, s3Env } from '@imagestudio/runtime';
import { SERVER_ENV_NAMES } from '../config';

/**
 * What the deployment tests share: the variables the API and the worker read, and a reader of the repository's
 * files. The worker's schema is read from its source (the server may not import the worker's code): its keys are
 * the upper-case names at the start of a line inside `const envSchema = z.object({...})`, plus the shared ones.
 */

export function readRepoFile(relative: string): string {
  return fs.readFileSync(fromProjectRoot(relative), 'utf8');
}

function workerEnvNames(): string[] {
  const source = readRepoFile('worker/src/config.ts');
  const start = source.indexOf('const envSchema = z');
  const end = source.indexOf('.superRefine(', start);
  if (start < 0 || end < 0) throw new Error('worker/src/config.ts: envSchema not found where expected');
  const own = [...source.slice(start, end).matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  return [...own, ...Object.keys(processEnv), ...Object.keys(queueEnv), ...Object.keys(s3Env)];
}

/** The variables the API (and the migration command, which loads the API's configuration) reads. */
export const API_ENV_NAMES: ReadonlySet<string> = new Set(SERVER_ENV_NAMES);
/** The variables the worker reads. */
export const WORKER_ENV_NAMES: ReadonlySet<string> = new Set(workerEnvNames());

/** The names in `names` that none of `known` reads (by default: neither the API nor the worker). */
export function unknownEnvNames(
  names: Iterable<string>,
  known: ReadonlyArray<ReadonlySet<string>> = [API_ENV_NAMES, WORKER_ENV_NAMES],
): string[] {
  return [...new Set(names)].filter((name) => !known.some((set) => set.has(name))).sort();
}
