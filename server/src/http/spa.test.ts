import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import supertest from 'supertest';
import { createTestContext, type TestContext } from '../test/harness';

/** A built client in miniature: a hashed bundle with its .br/.gz copies and map, a public file, the shell. */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), js);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(js));
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(js));
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.map'), '{"version":3}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  return dir;
}

describe('serving the built client', () => {
  const dist = fakeDist();
  let t: TestContext;
  let withMaps: TestContext;
  beforeAll(async () => {
    [t, withMaps] = await Promise.all([
      createTestContext({ CLIENT_DIST_DIR: dist }),
      createTestContext({ CLIENT_DIST_DIR: dist, SOURCE_MAPS_PUBLIC: 'true' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), withMaps.close()]);
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, immutable, varying on Accept-Encoding', async () => {
    const res = await supertest(t.app)
      .get('/assets/index-abc123.js')
      .set('Accept-Encoding', 'gzip, deflate, br')
      .buffer(true)
      .expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // supertest decodes the body as a browser would.
    expect(res.text).toContain('console.log');
    expect(res.headers['sourcemap']).toBeUndefined();
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await supertest(t.app)
      .get('/assets/index-abc123.js')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toContain('console.log');
    const plain = await supertest(t.app)
      .get('/assets/index-abc123.js')
      .set('Accept-Encoding', 'identity')
      .buffer(true)
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('console.log');
  });

  it('makes browsers revalidate the shell and unhashed files', async () => {
    expect((await supertest(t.app).get('/pricing').expect(200)).headers['cache-control']).toBe('no-cache');
    expect((await supertest(t.app).get('/index.html').expect(200)).headers['cache-control']).toBe('no-cache');
    expect((await supertest(t.app).get('/favicon.svg').expect(200)).headers['cache-control']).toBe('no-cache');
  });

  it('hides source maps unless SOURCE_MAPS_PUBLIC=true, which also names them in a SourceMap header', async () => {
    await supertest(t.app).get('/assets/index-abc123.js.map').expect(404);
    await supertest(withMaps.app).get('/assets/index-abc123.js.map').expect(200);
    const js = await supertest(withMaps.app).get('/assets/index-abc123.js').set('Accept-Encoding', 'br').expect(200);
    expect(js.headers['sourcemap']).toBe('index-abc123.js.map');
  });

  it('compresses JSON replies over 1 KB and leaves small ones alone', async () => {
    const big = await supertest(t.app)
      .get('/api/localizations?lang_id=1')
      .set('Accept-Encoding', 'br')
      .buffer(true)
      .expect(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(big.body.status).toBe('OK');
    const small = await supertest(t.app).get('/api/health').set('Accept-Encoding', 'br').expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
