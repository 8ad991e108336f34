import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getModel } from '../../../models/manifest';
import { choosePrecision, cpuHasInt8Dot, loadWithPrecision } from './precision';
import type { InferenceRuntime, ModelSession } from './runtime';

const fp32 = getModel('isnet-medium-fp32');
const int8 = getModel('isnet-medium-int8');

describe('model precision (WORKER_PRECISION)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precision-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const withInt8File = () => fs.writeFileSync(path.join(dir, int8.file), 'x');
  const choose = (setting: 'auto' | 'fp32' | 'int8', more: { gpuListed?: boolean; int8Cpu?: boolean } = {}) =>
    choosePrecision(fp32, '/m/fp32.onnx', {
      setting,
      modelsDir: dir,
      gpuListed: more.gpuListed ?? false,
      int8Cpu: more.int8Cpu ?? true,
    });

  it('reads VNNI and AMX from the CPU flags', () => {
    expect(cpuHasInt8Dot('processor : 0\nflags : fpu sse2 avx2 avx512f avx512_vnni\n')).toBe(true);
    expect(cpuHasInt8Dot('flags : fpu avx2 avx_vnni\n')).toBe(true);
    expect(cpuHasInt8Dot('flags : fpu avx512f amx_tile amx_int8\n')).toBe(true);
    expect(cpuHasInt8Dot('flags : fpu sse2 avx2 avx512f\n')).toBe(false);
    expect(cpuHasInt8Dot('')).toBe(false);
  });

  it('auto: int8 on a CPU with VNNI or AMX when the int8 file is prepared, fp32 otherwise', () => {
    withInt8File();
    expect(choose('auto').entry.id).toBe('isnet-medium-int8');
    expect(choose('auto').file).toBe(path.join(dir, int8.file));
    expect(choose('auto', { int8Cpu: false })).toMatchObject({ entry: fp32, reason: 'the CPU has no VNNI or AMX' });
    // GPU providers listed: fp32 first, int8 only if the model ends up on the CPU.
    const gpu = choose('auto', { gpuListed: true });
    expect(gpu.entry).toBe(fp32);
    expect(gpu.int8Fallback?.entry.id).toBe('isnet-medium-int8');
  });

  it('falls back to fp32 when the int8 file is missing, whatever the setting', () => {
    expect(choose('auto')).toMatchObject({ entry: fp32, file: '/m/fp32.onnx' });
    expect(choose('int8').entry).toBe(fp32);
    expect(choose('int8').reason).toContain('isnet-medium-int8.onnx is not prepared');
  });

  it('fp32 and int8 force a file; a model without an int8 variant stays fp32', () => {
    withInt8File();
    expect(choose('fp32').entry).toBe(fp32);
    expect(choose('int8', { int8Cpu: false, gpuListed: true }).entry.id).toBe('isnet-medium-int8');
    const esrgan = getModel('esrgan-slim-x4');
    expect(
      choosePrecision(esrgan, '/m/e.onnx', { setting: 'int8', modelsDir: dir, gpuListed: false, int8Cpu: true }),
    ).toMatchObject({ entry: esrgan, reason: 'no int8 model for it' });
  });

  it('loads the int8 file instead when a GPU provider was listed but the fp32 one ended up on the CPU', async () => {
    withInt8File();
    const loaded: string[] = [];
    const released: string[] = [];
    const runtime = {
      options: { providers: ['cuda', 'cpu'] },
      load: async (file: string) => {
        loaded.push(file);
        return { provider: 'cpu', release: async () => void released.push(file) } as unknown as ModelSession;
      },
    } as unknown as InferenceRuntime;
    const infos: unknown[] = [];
    const logger = { info: (o: unknown) => infos.push(o) } as never;
    const result = await loadWithPrecision(runtime, fp32, '/m/fp32.onnx', {
      setting: 'auto',
      modelsDir: dir,
      int8Cpu: true,
      logger,
    });
    expect(loaded).toEqual(['/m/fp32.onnx', path.join(dir, int8.file)]);
    expect(released).toEqual(['/m/fp32.onnx']);
    expect(result.precision).toBe('int8');
    expect(result.entry.id).toBe('isnet-medium-int8');
    expect(infos[0]).toMatchObject({ model: 'isnet-medium-fp32', precision: 'int8', provider: 'cpu' });
  });
});
