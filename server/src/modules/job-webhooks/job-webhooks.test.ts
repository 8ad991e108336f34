import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { JobView } from '@imagestudio/contracts';
import { loadConfig } from '../../config';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer } from '../../test/local-server';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { money, waitFor, workerFor } from '../jobs/jobs.test-support';
import { CALLBACK_MESSAGES, checkCallbackUrl, isPublicAddress } from './callback-url';
import * as repo from './job-webhooks.repository';
import { jobWebhooksTask, nextAttemptAt } from './job-webhooks.service';
import { postWebhook } from './post-webhook';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local receiver whose answer per path the test chooses. */
function receiver(answer: (path: string, count: number) => number | 'hang' | 'redirect') {
  const received: Received[] = [];
  const local = localServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      const what = answer(path, received.filter((r) => r.path === path).length);
      if (what === 'hang') return;
      if (what === 'redirect') res.writeHead(302, { Location: '/redirected' }).end();
      else res.writeHead(what).end('ok');
    });
  });
  return { ...local, received };
}

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let stopWebhooks: () => Promise<void>;
const hooks = receiver((path, count) => {
  if (path === '/flaky') return count === 1 ? 500 : 204;
  if (path === '/redirect') return 'redirect';
  if (path === '/slow') return 'hang';
  return 200;
});

beforeAll(async () => {
  await hooks.listen();
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_FIRST_RETRY_S: '0.2',
    WEBHOOK_TIMEOUT_MS: '500',
  });
  stopEvents = await startJobEvents(t.ctx);
  stopWebhooks = jobWebhooksTask(t.ctx).start();
  worker = await workerFor(t, { concurrency: 2 });
}, 30_000);
afterAll(async () => {
  await worker.close();
  await stopWebhooks();
  await stopEvents();
  await t.close();
  await hooks.close();
});

async function jobWithCallback(path: string, prompt = 'a windmill') {
  const owner = await verifiedUser(t, { balanceTokens: 10 });
  const res = await owner.agent
    .post('/api/tools/generate')
    .send({ prompt, size: '1024x1024', callback_url: hooks.url(path) })
    .expect(202);
  return { owner, job: res.body.payload as JobView };
}

const settled = (jobId: string, state: string) =>
  waitFor(
    async () => {
      const row = await repo.findWebhook(t.ctx.db, jobId);
      return row && row.state === state ? row : undefined;
    },
    15_000,
    `webhook of ${jobId} to be ${state}`,
  );

describe('job webhooks', () => {
  it('posts the ended job once, signed t=...,v1=HMAC-SHA256("t.body") with the user\'s secret', async () => {
    const { owner, job } = await jobWithCallback('/ok');
    const row = await settled(job.id, 'delivered');
    expect(row).toMatchObject({ attempts: 1, last_status: 200 });
    const got = hooks.received.filter((r) => r.path === '/ok' && r.body.includes(job.id));
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0]!.body) as JobView;
    expect(body).toMatchObject({ id: job.id, status: 'succeeded', tool: 'generate' });
    expect(got[0]!.headers['content-type']).toBe('application/json');

    const secret = (await owner.agent.get('/api/user/webhook-secret').expect(200)).body.payload.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const [, ts, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got[0]!.headers['imagestudio-signature'])) ?? [];
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(mac).toBe(createHmac('sha256', secret).update(`${ts}.${got[0]!.body}`).digest('hex'));
  });

  it('retries with backoff after a failed try', async () => {
    const { job } = await jobWithCallback('/flaky');
    const row = await settled(job.id, 'delivered');
    expect(row).toMatchObject({ attempts: 2, last_status: 204, last_error: null });
    expect(
      hooks.received.filter((r) => r.body.includes(job.id)).map((r) => r.headers['imagestudio-delivery-attempt']),
    ).toEqual(['1', '2']);
  });

  it('never follows a redirect, and gives a silent receiver WEBHOOK_TIMEOUT_MS', async () => {
    const redirected = await jobWithCallback('/redirect');
    const slow = await jobWithCallback('/slow');
    const a = await waitFor(async () => {
      const r = await repo.findWebhook(t.ctx.db, redirected.job.id);
      return r && r.attempts >= 1 ? r : undefined;
    }, 15_000);
    const b = await waitFor(async () => {
      const r = await repo.findWebhook(t.ctx.db, slow.job.id);
      return r && r.attempts >= 1 ? r : undefined;
    }, 15_000);
    expect(a).toMatchObject({ state: 'pending', last_status: 302, last_error: 'answered 302' });
    expect(b).toMatchObject({ state: 'pending', last_status: null, last_error: 'no answer within 500 ms' });
    expect(hooks.received.some((r) => r.path === '/redirected')).toBe(false);
  });

  it('gives up once the next try would fall outside the retry window', () => {
    const ended = new Date('2026-01-01T00:00:00Z');
    const at = (hours: number) => new Date(ended.getTime() + hours * 3600_000);
    expect(nextAttemptAt(t.ctx, 1, ended, ended)!.getTime() - ended.getTime()).toBe(200);
    expect(nextAttemptAt(t.ctx, 30, ended, at(1))!.getTime() - at(1).getTime()).toBe(3600_000);
    expect(nextAttemptAt(t.ctx, 30, ended, at(23.5))).toBeNull();
  });
});

describe('callback URL rules', () => {
  it('refuses private, loopback and metadata addresses (after DNS resolution) and non-http schemes before charging', async () => {
    const owner = await verifiedUser(t, { balanceTokens: 10 });
    const refused: Array<[string, string]> = [
      ['ftp://example.com/x', CALLBACK_MESSAGES.invalid],
      ['not a url', CALLBACK_MESSAGES.invalid],
      ['https://user:pw@example.com/x', CALLBACK_MESSAGES.invalid],
      ['http://10.1.2.3/hook', CALLBACK_MESSAGES.privateAddress],
      ['http://169.254.169.254/latest', CALLBACK_MESSAGES.privateAddress],
      ['http://[::1]:8080/', CALLBACK_MESSAGES.privateAddress],
      ['http://[::ffff:127.0.0.1]/', CALLBACK_MESSAGES.privateAddress],
      ['http://localhost:9/', CALLBACK_MESSAGES.privateAddress],
    ];
    for (const [url, message] of refused) {
      const res = await owner.agent
        .post('/api/tools/generate')
        .send({ prompt: 'x', size: '1024x1024', callback_url: url });
      expect([url, res.status, res.body.errors]).toEqual([url, 422, { callback_url: [message] }]);
    }
    expect((await money(t, owner.user.id)).balance).toBe(100);
    expect(await t.ctx.db('image_jobs').where({ user_id: owner.user.id }).count('* as n').first()).toEqual({ n: '0' });
  });

  it('asks for https in production and checks the address again when connecting', async () => {
    const production = loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      APP_URL: 'https://studio.example',
      S3_ENDPOINT: 'https://s3.example',
      SMTP_URL: 'smtp://mail.example',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    });
    await expect(checkCallbackUrl(production, 'http://example.com/hook')).rejects.toMatchObject({
      errors: { callback_url: [CALLBACK_MESSAGES.insecure] },
    });
    // The exemption list is ignored in production; the send applies the rule again, to IP literals and
    // (through the socket's lookup) to names, whatever they resolved to when the job was accepted.
    const literal = await postWebhook(production, hooks.url('/ok').replace('http:', 'https:'), '{}', {});
    expect(literal).toEqual({ ok: false, status: null, error: CALLBACK_MESSAGES.privateAddress });
    const development = loadConfig({ ...process.env, NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    const named = await postWebhook(development, hooks.url('/ok').replace('127.0.0.1', 'localhost'), '{}', {});
    expect(named).toEqual({ ok: false, status: null, error: CALLBACK_MESSAGES.privateAddress });
    // Counted by its own body: a delivery retried in the background for an earlier test may land meanwhile.
    const body = JSON.stringify({ direct: Date.now() });
    expect(await postWebhook(development, hooks.url('/ok'), body, {})).toEqual({ ok: true, status: 200, error: null });
    expect(hooks.received.filter((r) => r.body === body)).toHaveLength(1);
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(['192.168.1.1', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '224.0.0.1'].some(isPublicAddress)).toBe(
      false,
    );
  });
});
