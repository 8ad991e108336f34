import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { API_KEY_MESSAGES } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../test/harness';
import { redactUrlSecrets, requestLogger } from './request-logger';

const KEY = `isk_live_${'A1b2-C3d4_'.repeat(4)}xyz`;

describe('redactUrlSecrets', () => {
  it.each([
    [`/api/user/profile?api_key=${KEY}`, '/api/user/profile?api_key=[redacted]'],
    [`/api/jobs?page=2&access_token=abc&x=1`, '/api/jobs?page=2&access_token=[redacted]&x=1'],
    ['/api/x?password=hunter2&Session_Id=s1&sig=keep', '/api/x?password=[redacted]&Session_Id=[redacted]&sig=keep'],
    ['/api/x?client%5Fsecret=s', '/api/x?client%5Fsecret=[redacted]'],
    [`/api/x?q=${KEY}`, '/api/x?q=isk_live_[redacted]'],
    [`/api/keys/${KEY}/x`, '/api/keys/isk_live_[redacted]/x'],
    ['/api/x?note=whsec_abcDEF123', '/api/x?note=whsec_[redacted]'],
    ['/api/tools/upscale?wait=10&currency=EUR', '/api/tools/upscale?wait=10&currency=EUR'],
    ['/api/x?flag&token', '/api/x?flag&token'],
  ])('%s -> %s', (url, logged) => {
    expect(redactUrlSecrets(url)).toBe(logged);
  });
});

describe('the access log', () => {
  it('never writes a key sent in the query string', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const app = express();
    app.use(requestLogger(logger));
    app.get('/api/user/profile', (_req, res) => res.status(401).json({}));
    await supertest(app).get(`/api/user/profile?api_key=${KEY}`).expect(401);
    expect(lines).toEqual([expect.objectContaining({ url: '/api/user/profile?api_key=[redacted]', status: 401 })]);
    expect(JSON.stringify(lines)).not.toContain('A1b2');
  });
});

describe('a key in the query string', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([`api_key=${KEY}`, 'apiKey=whatever', `x=${KEY}`, 'access_token=abc'])(
    'is refused with a 401 that names the header (?%s)',
    async (query) => {
      const res = await t.agent().get(`/api/user/profile?${query}`).expect(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', message: API_KEY_MESSAGES.keyInUrl });
    },
  );

  it('leaves other query parameters alone', async () => {
    await t.agent().get('/api/settings?token=x&key=y').expect(200);
  });
});
