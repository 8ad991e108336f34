// Reads selected files of an npm tarball into memory without extracting it to disk.
import { t as listTar } from 'tar';

/**
 * Returns the files of `tgz` whose path (with npm's leading `package/` removed) passes `wanted`,
 * keyed by that path.
 */
export async function readTarballFiles(tgz: string, wanted: (path: string) => boolean): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await listTar({
    file: tgz,
    onReadEntry: (entry) => {
      const path = entry.path.replace(/^package\//, '');
      if (entry.type !== 'File' || !wanted(path)) {
        entry.resume();
        return;
      }
      const parts: Buffer[] = [];
      entry.on('data', (part: Buffer) => parts.push(part));
      entry.on('end', () => files.set(path, Buffer.concat(parts)));
    },
  });
  return files;
}
