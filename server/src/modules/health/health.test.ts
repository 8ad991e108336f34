import { routes } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { expectReplyMatchesSchema } from '../../test/reply-schema';

describe('health, readiness and the /api envelope', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ METRICS_TOKEN: 'metrics-token-of-the-scraper' });
  });
  afterAll(() => t.close());

  it('answers liveness with the OK envelope and a request id', async () => {
    const res = await t.agent().get('/api/health').expect(200);
    expect(res.body.status).toBe('OK');
    expect(res.body.payload.uptime_s).toBeGreaterThanOrEqual(0);
    expect(res.headers['x-request-id']).toMatch(/.+/);
  });

  it('reports every dependency ready', async () => {
    const res = await t.agent().get('/api/ready').expect(200);
    expect(res.body).toEqual({ status: 'OK', payload: { postgres: 'ok', redis: 'ok', queue: 'ok', s3: 'ok' } });
    expectReplyMatchesSchema(routes.service.ready, res.body);
  });

  it('names what is down with a 503 when a dependency fails', async () => {
    const other = await createTestContext();
    await other.ctx.storage.close();
    const res = await other.agent().get('/api/ready').expect(503);
    expect(res.body).toMatchObject({ status: 'ERROR', code: 'service_unavailable' });
    expect(res.body.message).toContain('s3');
    expect(res.body.message).not.toContain('postgres');
    await other.close();
  });

  it('serves Prometheus metrics that count requests', async () => {
    await t.agent().get('/api/health');
    const res = await t
      .agent()
      .get('/api/metrics')
      .set('Authorization', 'Bearer metrics-token-of-the-scraper')
      .expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
  });

  it('refuses metrics without the bearer token, and serves none when METRICS_TOKEN is unset', async () => {
    expect((await t.agent().get('/api/metrics')).status).toBe(401);
    expect(
      (await t.agent().get('/api/metrics').set('Authorization', 'Bearer metrics-token-of-the-scrapeX')).status,
    ).toBe(401);
    const bare = await createTestContext();
    try {
      expect((await bare.agent().get('/api/metrics').set('Authorization', 'Bearer anything')).status).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it('answers unknown /api paths with the 404 envelope', async () => {
    const res = await t.agent().get('/api/no-such-thing').expect(404);
    expect(res.body).toEqual({ status: 'ERROR', code: 'not_found', message: 'Not found.' });
  });

  it('answers malformed JSON with 400 and oversized JSON with 413, both as envelopes', async () => {
    const bad = await t.agent().post('/api/health').set('Content-Type', 'application/json').send('{"a":');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'ERROR', code: 'invalid_json' });
    const big = await t
      .agent()
      .post('/api/health')
      .send({ blob: 'x'.repeat(200 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ status: 'ERROR', code: 'payload_too_large' });
  });

  it('sends security headers: a minimal policy on /api replies, the document policy on the client pages', async () => {
    const res = await t.agent().get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).not.toContain('googletagmanager');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
    const page = await t.agent().get('/login');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain('https://www.googletagmanager.com');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});
