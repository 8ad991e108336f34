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

/** S3_PUBLIC_ENDPOINT: the API talks to S3 by its internal name and hands browsers URLs for the public one. */
describe('presigned URLs on a public S3 address', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ S3_PUBLIC_ENDPOINT: 'https://files.example.test:9443' });
  });
  afterAll(() => t.close());

  it('signs every browser URL for the public endpoint while reads and writes keep the internal one', async () => {
    await t.ctx.storage.put('results/public-test/0.png', Buffer.from('png'), 'image/png');
    expect(await t.ctx.storage.get('results/public-test/0.png')).toEqual(Buffer.from('png'));
    const url = new URL(await t.ctx.storage.presignGet('results/public-test/0.png', 900, 'cat.png'));
    expect(url.origin).toBe('https://files.example.test:9443');
    expect(url.pathname).toBe(`/${t.ctx.storage.bucket}/results/public-test/0.png`);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(new URL(t.ctx.storage.endpoint).hostname).toBe('127.0.0.1');
  });

  it('lets the pages load images from the public endpoint (CSP), not from the internal one', async () => {
    const res = await t.agent().get('/');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain('https://files.example.test:9443');
    expect(csp).not.toContain(new URL(t.ctx.storage.endpoint).origin);
  });

  it('uses the S3 endpoint itself when no public address is set', async () => {
    const plain = await createTestContext();
    try {
      const url = await plain.ctx.storage.presignGet('results/x/0.png');
      expect(new URL(url).origin).toBe(new URL(plain.ctx.storage.endpoint).origin);
      expect(plain.ctx.storage.publicEndpoint).toBe(plain.ctx.storage.endpoint);
    } finally {
      await plain.close();
    }
  });
});
