import { InferenceRequireGpuError, InferenceRuntime, supportedProviders } from './runtime';
import path from 'node:path';

// The ESRGAN slim x2 model is small (0.9 MB) and takes any input size: quick to load and run on CPU.
const SLIM_X2 = path.resolve(__dirname, '..', '..', '..', 'models', '.cache', 'esrgan-slim-x2.onnx');

describe('InferenceRuntime', () => {
  it('knows which providers this onnxruntime build has', () => {
    expect(supportedProviders()).toEqual(expect.arrayContaining(['cpu', 'webgpu']));
  });

  it('falls back along the configured order and reports the provider that loaded', async () => {
    // No CUDA libraries here, and no GPU adapter for WebGPU: both fail to create a session, cpu wins.
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (o: { provider: string }) => warnings.push(o.provider) } as never;
    const runtime = await InferenceRuntime.start({
      providers: ['cuda', 'cpu'],
      requireGpu: false,
      cpuThreads: 2,
      logger,
    });
    try {
      const session = await runtime.load(SLIM_X2);
      expect(session.provider).toBe('cpu');
      expect(warnings).toEqual(['cuda']);
      const { outputs, ms } = await session.run(
        {
          [session.inputNames[0]!]: {
            type: 'float32',
            data: new Float32Array(3 * 8 * 8).fill(100),
            dims: [1, 3, 8, 8],
          },
        },
        [session.outputNames[0]!],
      );
      expect(outputs[session.outputNames[0]!]!.dims).toEqual([1, 3, 16, 16]);
      expect(ms).toBeGreaterThan(0);
    } finally {
      await runtime.close();
    }
  });

  it('loads a file once for every tool that loads it, and frees it when the last holder releases it', async () => {
    const runtime = await InferenceRuntime.start({ providers: ['cpu'], requireGpu: false, cpuThreads: 2 });
    const feeds = (s: { inputNames: readonly string[] }) => ({
      [s.inputNames[0]!]: { type: 'float32' as const, data: new Float32Array(3 * 4 * 4), dims: [1, 3, 4, 4] },
    });
    try {
      const [a, b] = await Promise.all([runtime.load(SLIM_X2), runtime.load(path.relative(process.cwd(), SLIM_X2))]);
      expect(b).toBe(a);
      await a.release();
      await expect(b.run(feeds(b), [b.outputNames[0]!])).resolves.toBeDefined();
      await b.release();
      await expect(b.run(feeds(b), [b.outputNames[0]!])).rejects.toThrow();
      const again = await runtime.load(SLIM_X2);
      expect(again.id).not.toBe(a.id);
    } finally {
      await runtime.close();
    }
  });

  it('refuses to run on CPU when a GPU is required', async () => {
    const runtime = await InferenceRuntime.start({ providers: ['cuda', 'cpu'], requireGpu: true, cpuThreads: 2 });
    try {
      await expect(runtime.load(SLIM_X2)).rejects.toThrow(InferenceRequireGpuError);
      await expect(runtime.load(SLIM_X2)).rejects.toThrow('WORKER_REQUIRE_GPU=true');
    } finally {
      await runtime.close();
    }
  });
});
