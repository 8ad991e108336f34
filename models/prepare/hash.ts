// Hash helpers shared by the prepare steps: streaming for big files, in memory for chunks.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Hex sha256 of a buffer. */
export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hashes a file by streaming it (the ISNet file is ~90 MB); `algorithm` as node:crypto names it. */
export async function hashFile(
  file: string,
  algorithm: 'sha256' | 'sha512',
  encoding: 'hex' | 'base64' = 'hex',
): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest(encoding);
}

/** npm-style integrity string (`sha512-<base64>`) of a file. */
export async function fileIntegrity(file: string): Promise<string> {
  return `sha512-${await hashFile(file, 'sha512', 'base64')}`;
}

/** Raised when something we pinned does not match; `npm run models` stops with its message. */
export class IntegrityError extends Error {
  constructor(what: string, expected: string, actual: string, hint: string) {
    super(`${what}: hash mismatch\n  expected ${expected}\n  actual   ${actual}\n${hint}`);
    this.name = 'IntegrityError';
  }
}
