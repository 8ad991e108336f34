import type supertest from 'supertest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { BatchView } from '@imagestudio/contracts';
import { waitFor } from '../jobs/jobs.test-support';
export { binaryParser } from '../../test/binary-parser';

/** Test support for the batch tests (not a test file itself). */

export interface ZipSpec {
  name: string;
  data: Buffer;
  /** Deflate the entry (default: stored, as image archives usually are). */
  compress?: boolean;
}

/**
 * A ZIP built by yazl. yazl refuses unsafe names, so hostile ones are written as harmless names of the same
 * length and then patched in the bytes (local header and central directory alike): `patch` maps one to
 * the other.
 */
export async function makeZip(entries: ZipSpec[], patch: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name, { compress: e.compress ?? false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(patch)) {
    if (from.length !== to.length) throw new Error('a patched name must keep its length');
    const needle = Buffer.from(from, 'latin1');
    let at = bytes.indexOf(needle);
    if (at < 0) throw new Error(`name ${from} not in the ZIP`);
    bytes = Buffer.from(bytes);
    while (at >= 0) {
      Buffer.from(to, 'latin1').copy(bytes, at);
      at = bytes.indexOf(needle, at + 1);
    }
  }
  return bytes;
}

/**
 * A ZIP of `count` entries whose central-directory records all point at one local header and its deflated
 * `data` (an "overlapping" zip bomb): small on the wire, count x data.length once expanded.
 */
export async function overlappingZip(count: number, data: Buffer): Promise<Buffer> {
  const one = await makeZip([{ name: 'img-000.png', data, compress: true }]);
  const eocd = one.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'));
  const cdOffset = one.readUInt32LE(eocd + 16);
  const record = one.subarray(cdOffset, eocd);
  const records = Array.from({ length: count }, (_, i) => {
    const copy = Buffer.from(record);
    const name = `img-${String(i).padStart(3, '0')}.png`;
    copy.write(name, 46, 'latin1');
    return copy;
  });
  const directory = Buffer.concat(records);
  const end = Buffer.from(one.subarray(eocd, eocd + 22));
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([one.subarray(0, cdOffset), directory, end]);
}

/** Every entry of a ZIP: name -> bytes, in archive order. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

/** GET /api/batches/{id} until `done` holds for it. */
export function waitForBatch(
  agent: supertest.Agent,
  id: string,
  done: (b: BatchView) => boolean,
  timeoutMs = 15_000,
  what = 'batch',
): Promise<BatchView> {
  return waitFor(
    async () => {
      const res = await agent.get(`/api/batches/${id}`);
      const batch = res.body.payload as BatchView | undefined;
      return batch && done(batch) ? batch : undefined;
    },
    timeoutMs,
    what,
  );
}
