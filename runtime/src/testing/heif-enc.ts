import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Test images in HEIF formats made at run time with Debian's `heif-enc` (package libheif-examples; .ci/run
 * installs it): HEVC-coded HEIC as phones save it, or AV1-coded AVIF. heif-enc reads a JPEG or PNG and carries
 * its ICC profile and EXIF into the HEIF file, so a test can build the input it needs with sharp first.
 */
export async function heifEnc(
  input: Buffer,
  options: { avif?: boolean; quality?: number; lossless?: boolean } = {},
): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'heif-enc-'));
  try {
    const ext = input[0] === 0xff ? 'jpg' : 'png';
    const source = path.join(dir, `in.${ext}`);
    const target = path.join(dir, options.avif ? 'out.avif' : 'out.heic');
    await fs.writeFile(source, input);
    const args = options.lossless
      ? ['-L', '-p', 'chroma=444', '--matrix_coefficients=0']
      : ['-q', String(options.quality ?? 90)];
    await run('heif-enc', [...args, ...(options.avif ? ['-A'] : []), '-o', target, source]);
    return await fs.readFile(target);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
