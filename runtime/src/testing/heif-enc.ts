import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { HEIF_FIXTURES_WRITE } from './test-env';

const run = promisify(execFile);

/** Where the encoded images are kept, named by what they were made from (see its README.md). */
export const HEIF_FIXTURES_DIR = path.join(__dirname, 'heif-fixtures');
/** One line per fixture: its file, the heif-enc command that made it, and the input's sha256 and size. */
export const HEIF_MANIFEST = path.join(HEIF_FIXTURES_DIR, 'manifest.tsv');

export interface HeifEncOptions {
  avif?: boolean;
  quality?: number;
  lossless?: boolean;
}

function heifEncArgs(options: HeifEncOptions): string[] {
  const args = options.lossless
    ? ['-L', '-p', 'chroma=444', '--matrix_coefficients=0']
    : ['-q', String(options.quality ?? 90)];
  return [...args, ...(options.avif ? ['-A'] : [])];
}

/**
 * Test images in HEIF formats as Debian's `heif-enc` (package libheif-examples) makes them: HEVC-coded HEIC as
 * phones save it, or AV1-coded AVIF; heif-enc reads a JPEG or PNG and carries its ICC profile and EXIF into the
 * HEIF file, so a test builds the input it needs with sharp first. No encoder for HEVC ships with npm, so the
 * results are committed: the file for an input is named by the sha256 of heif-enc's arguments and the input's
 * bytes, and `npm test` needs no heif-enc. A test with a new input fails here until its fixture is made with
 * `HEIF_FIXTURES=write` on a machine with heif-enc (heif-fixtures/README.md).
 */
export async function heifEnc(input: Buffer, options: HeifEncOptions = {}): Promise<Buffer> {
  const args = heifEncArgs(options);
  const key = createHash('sha256').update(args.join(' ')).update('\0').update(input).digest('hex').slice(0, 24);
  const name = `${key}.${options.avif ? 'avif' : 'heic'}`;
  const file = path.join(HEIF_FIXTURES_DIR, name);
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!HEIF_FIXTURES_WRITE) {
    throw new Error(
      `heifEnc: no fixture ${name} for this input (heif-enc ${args.join(' ')}); make it with HEIF_FIXTURES=write ` +
        'on a machine with heif-enc, as runtime/src/testing/heif-fixtures/README.md says',
    );
  }
  const ext = input[0] === 0xff ? 'jpg' : 'png';
  const made = await encode(input, ext, args, name);
  await fs.writeFile(file, made);
  const inputHash = createHash('sha256').update(input).digest('hex');
  // One short append per fixture: parallel jest workers writing fixtures at once keep whole lines.
  await fs.appendFile(
    HEIF_MANIFEST,
    `${name}\theif-enc ${args.join(' ')} -o ${name} input.${ext}\t${inputHash}\t${input.length}\n`,
  );
  return made;
}

async function encode(input: Buffer, ext: string, args: string[], name: string): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'heif-enc-'));
  try {
    const source = path.join(dir, `input.${ext}`);
    const target = path.join(dir, name);
    await fs.writeFile(source, input);
    await run('heif-enc', [...args, '-o', target, source]);
    return await fs.readFile(target);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
