// Chunk reassembly: order by offset, every chunk hash and the covered size checked.
import { createHash } from 'node:crypto';
import { assembleChunks, chunkList } from './isnet';

const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function fixture() {
  const parts = [Buffer.from('first chunk '), Buffer.from('second '), Buffer.from('last')];
  const chunks = [];
  let offset = 0;
  for (const p of parts) {
    chunks.push({ hash: hash(p), offsets: [offset, offset + p.length] as [number, number] });
    offset += p.length;
  }
  const store = new Map(parts.map((p) => [hash(p), p]));
  // resources.json lists chunks in any order; shuffle to prove ordering is by offset.
  const resources = Buffer.from(
    JSON.stringify({
      '/models/x': { chunks: [chunks[2], chunks[0], chunks[1]], size: offset, mime: 'application/octet-stream' },
    }),
  );
  return { parts, store, resources, size: offset };
}

describe('assembleChunks', () => {
  it('concatenates verified chunks in offset order', () => {
    const { parts, store, resources } = fixture();
    const out = assembleChunks(chunkList(resources, '/models/x'), (h) => store.get(h));
    expect(out.toString()).toBe(Buffer.concat(parts).toString());
  });

  it('stops on a chunk whose content does not match its hash', () => {
    const { parts, store, resources } = fixture();
    store.set(hash(parts[1] as Buffer), Buffer.from('SECOND '));
    expect(() => assembleChunks(chunkList(resources, '/models/x'), (h) => store.get(h))).toThrow(/hash mismatch/);
  });

  it('stops on a missing chunk, a gap or an unknown key', () => {
    const { parts, store, resources } = fixture();
    const entry = chunkList(resources, '/models/x');
    expect(() => assembleChunks(entry, (h) => (h === hash(parts[2] as Buffer) ? undefined : store.get(h)))).toThrow(
      /is missing/,
    );
    expect(() =>
      assembleChunks({ ...entry, chunks: entry.chunks.filter((c) => c.offsets[0] !== 0) }, (h) => store.get(h)),
    ).toThrow(/starts at 12, expected 0/);
    expect(() => assembleChunks({ ...entry, size: entry.size + 1 }, (h) => store.get(h))).toThrow(
      /cover 23 bytes, expected 24/,
    );
    expect(() => chunkList(resources, '/models/medium')).toThrow(/no usable entry "\/models\/medium"/);
  });
});
