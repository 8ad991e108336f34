import { ConnectionClosedError } from 'bullmq';
import { ClientOfflineError, SocketClosedUnexpectedlyError } from 'redis';
import { isRedisUnavailable, speakBullmq } from './queue-connection';

/** A stand-in for a node-redis client: what its commands answer is chosen per test. */
class FakeClient {
  isReady = false;
  constructor(private readonly fail: Error | null) {}
  async evalSha(): Promise<string> {
    if (this.fail) throw this.fail;
    return 'ok';
  }
  on(): this {
    return this;
  }
  duplicate(): FakeClient {
    return new FakeClient(this.fail);
  }
}

describe('speakBullmq', () => {
  it.each([new ClientOfflineError(), new SocketClosedUnexpectedlyError()])(
    "turns node-redis's %p into BullMQ's ConnectionClosedError, on duplicates too",
    async (err) => {
      const client = speakBullmq(new FakeClient(err));
      for (const c of [client, client.duplicate()]) {
        const thrown = await c.evalSha().catch((e: unknown) => e);
        expect(thrown).toBeInstanceOf(ConnectionClosedError);
        expect((thrown as Error).cause).toBe(err);
        expect(isRedisUnavailable(thrown)).toBe(true);
      }
    },
  );

  it('passes answers, other errors and plain properties through', async () => {
    expect(await speakBullmq(new FakeClient(null)).evalSha()).toBe('ok');
    const script = new Error('ERR Error running script');
    await expect(speakBullmq(new FakeClient(script)).evalSha()).rejects.toBe(script);
    const client = speakBullmq(new FakeClient(null));
    expect(client.isReady).toBe(false);
    expect(client.on()).toBeInstanceOf(FakeClient);
  });
});
