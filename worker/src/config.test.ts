import { ConfigError } from '@imagestudio/runtime';
import { loadWorkerConfig } from './config';

describe('loadWorkerConfig', () => {
  const base = { S3_ENDPOINT: 'http://127.0.0.1:4568' };

  it('applies defaults and parses the provider list in order', () => {
    const c = loadWorkerConfig({ ...base, WORKER_EXECUTION_PROVIDERS: 'CUDA, webgpu,cpu' });
    expect(c.WORKER_EXECUTION_PROVIDERS).toEqual(['cuda', 'webgpu', 'cpu']);
    expect([c.QUEUE_REDIS_DB, c.QUEUE_PREFIX, c.WORKER_CONCURRENCY, c.WORKER_REQUIRE_GPU]).toEqual([
      1,
      'bull',
      1,
      false,
    ]);
    expect(c.WORKER_CPU_THREADS).toBeGreaterThan(0);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lists every bad variable at once', () => {
    let error: ConfigError | undefined;
    try {
      loadWorkerConfig({
        WORKER_EXECUTION_PROVIDERS: 'cuda,tpu',
        WORKER_CONCURRENCY: '0',
        WORKER_REQUIRE_GPU: 'maybe',
        REDIS_URL: 'nope',
      });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const vars = error!.problems.map((p) => p.split(':')[0]);
    expect(vars).toEqual(
      expect.arrayContaining([
        'S3_ENDPOINT',
        'WORKER_EXECUTION_PROVIDERS.1',
        'WORKER_CONCURRENCY',
        'WORKER_REQUIRE_GPU',
        'REDIS_URL',
      ]),
    );
  });

  it('refuses a provider listed twice', () => {
    expect(() => loadWorkerConfig({ ...base, WORKER_EXECUTION_PROVIDERS: 'cpu,cpu' })).toThrow('twice');
  });
});
