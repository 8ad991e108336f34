import fs from 'node:fs';
import path from 'node:path';
import { HEIF_FIXTURES_DIR, HEIF_MANIFEST, heifEnc } from './heif-enc';
import { HEIF_FIXTURES_WRITE } from './test-env';

function manifest(): { file: string; command: string }[] {
  const [, ...lines] = fs.readFileSync(HEIF_MANIFEST, 'utf8').trim().split('\n');
  return lines.map((line) => {
    const [file = '', command = ''] = line.split('\t');
    return { file, command };
  });
}

describe('heifEnc fixtures', () => {
  it('lists every committed fixture once, with the heif-enc command that made it, and no other file', () => {
    const files = fs.readdirSync(HEIF_FIXTURES_DIR).filter((f) => /\.(heic|avif)$/.test(f));
    const listed = manifest();
    expect(listed.map((l) => l.file).sort()).toEqual(files.sort());
    for (const { file, command } of listed) {
      expect(command).toMatch(new RegExp(`^heif-enc .* -o ${file.replace('.', '\\.')} input\\.(jpg|png)$`));
      // AVIF's command has -A; a HEIC's has not.
      expect(command.includes(' -A ')).toBe(file.endsWith('.avif'));
    }
  });

  it('holds real HEIF files of the kind each name says', () => {
    for (const { file } of manifest()) {
      const bytes = fs.readFileSync(path.join(HEIF_FIXTURES_DIR, file));
      // ISO BMFF: the first box is ftyp, whose major brand names the coding.
      expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
      expect(bytes.toString('latin1', 8, 12)).toBe(file.endsWith('.avif') ? 'avif' : 'heic');
    }
  });

  (HEIF_FIXTURES_WRITE ? it.skip : it)('fails, naming what to do, for an input it has no fixture for', async () => {
    await expect(heifEnc(Buffer.from('not an image made by any test'), { quality: 90 })).rejects.toThrow(
      /no fixture [0-9a-f]{24}\.heic for this input \(heif-enc -q 90\); make it with HEIF_FIXTURES=write/,
    );
  });
});
