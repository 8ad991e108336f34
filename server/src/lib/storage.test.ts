import { createTestContext, type TestContext } from '../test/harness';

/** The embedded S3 server of development: loopback only, CORS for the app's own origin only. */
describe('the embedded S3 server', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('listens on 127.0.0.1 and lets only the app origin read presigned results from a browser', async () => {
    expect(new URL(t.ctx.storage.endpoint).hostname).toBe('127.0.0.1');
    await t.ctx.storage.put('results/cors-test/0.png', Buffer.from('png'), 'image/png');
    const url = await t.ctx.storage.presignGet('results/cors-test/0.png');
    const own = await fetch(url, { headers: { Origin: t.config.APP_URL } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(t.config.APP_URL);
    const evil = await fetch(url, { headers: { Origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});
