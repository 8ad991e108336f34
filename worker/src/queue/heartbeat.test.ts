import pino from 'pino';
import { heartbeatKey } from '@imagestudio/contracts';
import type { RedisClient } from '@imagestudio/runtime';
import { startHeartbeat } from './heartbeat';

const beat = {
  workerId: 'w1',
  tools: ['upscale' as const],
  models: {},
  provider: 'cpu' as const,
  providers: { upscale: 'cpu' as const },
  concurrency: 1,
  version: '0.1.0',
};

function fakeRedis() {
  const sets: string[] = [];
  const redis = {
    set: async (key: string) => {
      sets.push(key);
      return 'OK';
    },
    del: async () => 1,
  } as unknown as RedisClient;
  return { redis, sets };
}

describe('the worker heartbeat', () => {
  it('is written, and reported to the watchdog, while the queue worker runs', async () => {
    const { redis, sets } = fakeRedis();
    let written = 0;
    const stop = startHeartbeat(redis, 'p', beat, pino({ level: 'silent' }), () => (written += 1));
    await new Promise((r) => setTimeout(r, 20));
    await stop();
    expect(sets).toEqual([heartbeatKey('p', 'w1')]);
    expect(written).toBe(1);
  });

  it('is withheld, with a warning, while the queue worker is not running', async () => {
    const { redis, sets } = fakeRedis();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => void warnings.push(JSON.parse(l).msg) });
    let written = 0;
    const stop = startHeartbeat(
      redis,
      'p',
      beat,
      logger,
      () => (written += 1),
      () => false,
    );
    await new Promise((r) => setTimeout(r, 20));
    await stop();
    expect(sets).toEqual([]);
    expect(written).toBe(0);
    expect(warnings).toEqual(['heartbeat withheld: the queue worker is not running']);
  });
});
