import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { startPrivateRedis, type PrivateRedis } from '@imagestudio/runtime/testing';
import { createTestContext, type TestContext } from '../../test/harness';
import { keyHolder } from './removebg.test-support';
import { BODY_MESSAGES, UNAVAILABLE_MESSAGE } from '../../http/error-handler';

/**
 * Failures that are no fault of the server's (body-parser's refusals, a client hanging up mid-body, Redis away) are
 * answered as what they are, on /api in the envelope and on /v1.0 in remove.bg's shape: never a 500 or an
 * error-level log line.
 */

type Line = { level: number; msg: string } & Record<string, unknown>;

/** Every line the app logs from now on, the request loggers' and the app logger's own. */
function captureLogs(t: TestContext): Line[] {
  const lines: Line[] = [];
  const capture = pino({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l) as Line) });
  jest.spyOn(t.ctx.logger, 'child').mockReturnValue(capture as never);
  for (const level of ['error', 'fatal'] as const)
    jest.spyOn(t.ctx.logger, level).mockImplementation(((obj: unknown, msg?: string) => {
      lines.push({ level: level === 'error' ? 50 : 60, msg: String(msg), obj } as Line);
    }) as never);
  return lines;
}

const waitFor = async <T>(check: () => T | undefined, ms = 5000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * Sends the headers and a part of a JSON body that announces more, then hangs up once a body reader on the server is
 * taking the bytes (a 'data' listener on the request). A fixed delay was not enough: under a loaded CI machine the
 * client left while the route was still checking the key, and a request gone before its reader starts is never read.
 */
async function abortJsonBody(
  server: http.Server,
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<void> {
  const received = new Promise<http.IncomingMessage>((resolve) => {
    // Express has already taken its mount path off `url` by now; `originalUrl` is the path as sent.
    const onRequest = (incoming: http.IncomingMessage & { originalUrl?: string }) => {
      if ((incoming.originalUrl ?? incoming.url) !== path) return;
      server.off('request', onRequest);
      resolve(incoming);
    };
    server.on('request', onRequest);
  });
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': '50000', ...headers },
  });
  req.on('error', () => undefined);
  req.write(`{"image_file_b64":"${'A'.repeat(4000)}`);
  const incoming = await received;
  await waitFor(() => (incoming.listenerCount('data') > 0 ? true : undefined), 20_000);
  req.destroy();
}

describe('error mapping', () => {
  let t: TestContext;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestContext();
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers a urlencoded form with too many fields as a refused form, not a 500', async () => {
    const { key } = await keyHolder(t);
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=x`).join('&');
    const removebg = await t
      .agent()
      .post('/v1.0/removebg')
      .set('X-Api-Key', key)
      .type('form')
      .send(`size=auto&${fields(60)}`);
    expect([removebg.status, removebg.body]).toEqual([
      400,
      { errors: [{ title: 'Invalid request', code: 'invalid_request', detail: BODY_MESSAGES.tooManyFields }] },
    ]);
    // /api's urlencoded reader takes 1000 fields: past that, the same refusal in the envelope, under `form`.
    const api = await t.agent().post('/api/login').type('form').send(fields(1001));
    expect([api.status, api.body]).toEqual([
      422,
      {
        status: 'ERROR',
        code: 'validation_failed',
        message: BODY_MESSAGES.tooManyFields,
        errors: { form: [BODY_MESSAGES.tooManyFields] },
      },
    ]);
  });

  it('logs a client that hangs up in the middle of a JSON body at info level, never as an error', async () => {
    const { key } = await keyHolder(t);
    const lines = captureLogs(t);
    await abortJsonBody(server, port, '/v1.0/removebg', { 'X-Api-Key': key });
    await abortJsonBody(server, port, '/api/login', {});
    const ended = await waitFor(() => {
      const found = lines.filter((l) => l.msg === 'request body ended by the client');
      return found.length === 2 ? found : undefined;
    }, 20_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(lines)}`);
    });
    expect(ended.map((l) => [l.level, l.type])).toEqual([
      [30, 'request.aborted'],
      [30, 'request.aborted'],
    ]);
    // Give a late error line the chance to be written before saying there is none.
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('a Redis outage on the remove.bg-compatible API', () => {
  let redis: PrivateRedis;
  let t: TestContext;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await createTestContext({ REDIS_URL: redis.url(0) });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.dispose();
  });

  it('answers /v1.0/account 503 service_unavailable with Retry-After, as /api does, not a 500', async () => {
    const { key } = await keyHolder(t);
    await t.agent().get('/v1.0/account').set('X-Api-Key', key).expect(200);
    await redis.stop();
    try {
      const res = await t.agent().get('/v1.0/account').set('X-Api-Key', key);
      expect([res.status, res.headers['retry-after'], res.body]).toEqual([
        503,
        '5',
        { errors: [{ title: 'Service unavailable', code: 'service_unavailable', detail: UNAVAILABLE_MESSAGE }] },
      ]);
    } finally {
      await redis.start();
      // Closing the app waits for its Redis client, which reconnects with a backoff.
      await waitFor(() => (t.ctx.redis.isReady ? true : undefined), 10_000);
    }
  }, 30_000);
});
