/**
 * Two of everything: two real API processes and two real worker processes on one Postgres, one Redis and
 * one S3, as a scaled-out deployment runs. Jobs go to whichever worker is free, a job's live state reaches a
 * browser connected to either API, and the login limit is one count whichever API a guess reaches.
 *
 * The workers generate through a local stand-in of an OpenAI-compatible images API (no models to load), each
 * with its own API key, so every request it receives says which worker sent it; it holds each request until
 * the test lets it through, so "both workers busy at once" and "a job half done" are states the test waits
 * for rather than races to see.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import supertest from 'supertest';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from './test/harness';
import { cookieHeader, createUser, signIn, xsrfCookie } from './test/auth-helpers';
import { freePort } from '@imagestudio/runtime/testing';
import { startApiProcess, startWorkerProcess, type ApiProcess, type ChildService } from './test/processes';
import { TEST_DATABASE_URL, TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { readHeartbeats } from './modules/workers';
import { applyEntryNow } from './modules/ledger';
import { usersRepository as users } from './modules/users';

interface HeldRequest {
  worker: string;
  prompt: string;
  let(): void;
}

/** An images API that answers only when the test says so (or at once once `open`), recording who asked. */
class GatedImagesApi {
  readonly seen: Array<{ worker: string; prompt: string }> = [];
  readonly held: HeldRequest[] = [];
  open = false;
  baseUrl = '';
  private server!: http.Server;
  private png!: Buffer;

  static async start(): Promise<GatedImagesApi> {
    const api = new GatedImagesApi();
    api.png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#2a7fd2' } })
      .png()
      .toBuffer();
    api.server = http.createServer((req, res) => void api.handle(req, res));
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    api.baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/v1`;
    return api;
  }

  /** Answers everything held, and everything that comes later at once. */
  openGate(): void {
    this.open = true;
    for (const request of this.held.splice(0)) request.let();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const body = JSON.parse(raw) as { prompt: string; n?: number };
    const worker = (req.headers.authorization ?? '').replace(/^Bearer sk-/, '');
    this.seen.push({ worker, prompt: body.prompt });
    const answer = () => {
      const data = Array.from({ length: body.n ?? 1 }, () => ({ b64_json: this.png.toString('base64') }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created: 1, data }));
    };
    if (this.open) answer();
    else this.held.push({ worker, prompt: body.prompt, let: answer });
  }
}

/** Server-Sent Events of one URL, parsed as they arrive. */
function listen(url: string, cookie: string) {
  const events: Array<{ event: string; data: JobView }> = [];
  let buffer = '';
  const request = http.get(url, { headers: { Cookie: cookie, Accept: 'text/event-stream' } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as JobView });
      }
    });
  });
  request.on('error', () => undefined);
  return { events, close: () => request.destroy() };
}

async function until<T>(
  what: string,
  read: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
  context = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const run = randomUUID().slice(0, 8);
let t: TestContext;
let images: GatedImagesApi;
let apis: ApiProcess[] = [];
let workers: ChildService[] = [];
let outboxDir: string;
const logs = () => [...apis, ...workers].map((p) => p.tail()).join('\n');

beforeAll(async () => {
  const s3Port = await freePort();
  // Everything a deployment shares between its API processes: the queue's and the limits' Redis keys and
  // the session secret. This in-process context runs the one S3 server and creates the test's accounts.
  const shared = {
    QUEUE_PREFIX: `scale-${run}`,
    RATE_LIMIT_PREFIX: `rl-scale-${run}`,
    SESSION_SECRET: `scale-out-test-secret-${run}`,
  };
  t = await createTestContext({ ...shared, S3_LOCAL_PORT: String(s3Port) });
  images = await GatedImagesApi.start();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-scale-'));
  const services = {
    ...shared,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_REDIS_DB: String(TEST_QUEUE_REDIS_DB),
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  };
  workers = ['a', 'b'].map((name) =>
    startWorkerProcess(`worker-${name}`, {
      ...services,
      WORKER_TOOLS: 'generate',
      GENERATION_API_URL: images.baseUrl,
      GENERATION_API_KEY: `sk-worker-${name}`,
      // A model that takes one image per call: a two-image job is then half done between its two calls.
      GENERATION_API_MODEL: 'dall-e-3',
      GENERATION_API_CONCURRENCY: '1',
    }),
  );
  const started = await Promise.allSettled(
    ['api-a', 'api-b'].map((name) =>
      startApiProcess(
        name,
        {
          ...services,
          DATABASE_URL: TEST_DATABASE_URL,
          SMTP_URL: '',
          MAIL_OUTBOX_FILE: path.join(outboxDir, `${name}.jsonl`),
        },
        180_000,
      ),
    ),
  );
  // The one that started is stopped by afterAll even when the other did not.
  apis = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // Generous: on a busy machine (the whole suite in parallel) starting four tsx processes takes a while.
  await until(
    'both workers to report',
    async () => {
      const gone = workers.find((w) => !w.running);
      if (gone) throw new Error(`${gone.name} exited\n${logs()}`);
      return (await readHeartbeats(t.ctx)).length >= 2 ? true : undefined;
    },
    180_000,
    logs,
  );
}, 300_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(apis.map((a) => a.stop()));
  await images?.close();
  await t?.close();
  if (outboxDir) fs.rmSync(outboxDir, { recursive: true, force: true });
}, 60_000);

/** A verified account with `tokens`, signed in through the first API; its cookies work on both. */
async function signedIn(tokens: number) {
  const { user, email, password } = await createUser(t);
  await users.markEmailVerified(t.ctx.db, user.id);
  await applyEntryNow(t.ctx.db, {
    userId: user.id,
    deltaTenths: tokens * 10 - Number(user.balance_tenths),
    kind: 'adjustment',
    idempotencyKey: `scale:${user.id}`,
    reason: 'test setup',
  });
  const agent = supertest.agent(apis[0]!.baseUrl);
  const login = await signIn(agent, email, password);
  expect(login.status).toBe(200);
  return { userId: user.id, cookie: cookieHeader(agent), xsrf: xsrfCookie(agent)! };
}

describe('two APIs and two workers on one Postgres and Redis', () => {
  it('spreads jobs over both workers and streams a job live from the API that did not take it', async () => {
    const me = await signedIn(20);
    const submit = async (api: ApiProcess, prompt: string, count: number) => {
      const res = await supertest(api.baseUrl)
        .post('/api/tools/generate')
        .set({ Cookie: me.cookie, 'X-XSRF-TOKEN': me.xsrf })
        .send({ prompt, size: '1024x1024', count });
      expect({ prompt, status: res.status, body: res.status === 202 ? null : res.body }).toEqual({
        prompt,
        status: 202,
        body: null,
      });
      return { id: (res.body.payload as JobView).id, prompt, via: api };
    };
    const [a, b] = apis as [ApiProcess, ApiProcess];
    // The first job needs two calls to the images API; the others one each.
    const jobs = [
      await submit(a, `first-${run}`, 2),
      await submit(b, `second-${run}`, 1),
      await submit(a, `third-${run}`, 1),
      await submit(b, `fourth-${run}`, 1),
    ];
    const first = jobs[0]!;
    const stream = listen(`${b.baseUrl}/api/jobs/${first.id}/events`, me.cookie);
    try {
      // Each worker takes one job at a time: both are busy at once, on the two oldest jobs.
      await until(
        'two workers to call the images API at once',
        () => images.held.length === 2 || undefined,
        60_000,
        logs,
      );
      expect(new Set(images.held.map((h) => h.worker))).toEqual(new Set(['worker-a', 'worker-b']));
      expect(new Set(images.held.map((h) => h.prompt))).toEqual(new Set([first.prompt, jobs[1]!.prompt]));

      // Half of the first job (taken through API A) done: the stream from API B says so while the job runs.
      const firstCall = images.held.splice(
        images.held.findIndex((h) => h.prompt === first.prompt),
        1,
      )[0]!;
      firstCall.let();
      const half = await until(
        'API B to stream the first job half done',
        () =>
          stream.events.find(
            (e) => e.event === 'job' && e.data.status === 'running' && e.data.stage === 'processing 1/2',
          ),
        30_000,
        logs,
      );
      expect(half.data.progress).toBe(40);
      // The job's second call comes from the same worker, which still holds it.
      await until(
        'the first job to ask for its second image',
        () => images.held.some((h) => h.prompt === first.prompt) || undefined,
        60_000,
        logs,
      );
      expect(images.held.find((h) => h.prompt === first.prompt)!.worker).toBe(firstCall.worker);

      images.openGate();
      const end = await until(
        'the stream on API B to end',
        () => stream.events.find((e) => e.event === 'end'),
        60_000,
        logs,
      );
      expect(end.data.status).toBe('succeeded');
      expect(end.data.results).toHaveLength(2);
    } finally {
      stream.close();
    }

    // Every job finishes once, on one worker, and both workers ran some; either API reports each one.
    for (const [i, job] of jobs.entries()) {
      const api = apis[i % 2]!;
      await until(
        `job ${job.prompt} to succeed`,
        async () => {
          const res = await supertest(api.baseUrl).get(`/api/jobs/${job.id}`).set('Cookie', me.cookie);
          return (res.body.payload as JobView | undefined)?.status === 'succeeded' || undefined;
        },
        60_000,
        logs,
      );
    }
    const byPrompt = new Map<string, Set<string>>();
    for (const { worker, prompt } of images.seen) byPrompt.set(prompt, (byPrompt.get(prompt) ?? new Set()).add(worker));
    expect([...byPrompt.keys()].sort()).toEqual(jobs.map((j) => j.prompt).sort());
    for (const workersOfJob of byPrompt.values()) expect(workersOfJob.size).toBe(1);
    expect(images.seen.filter((s) => s.prompt === first.prompt)).toHaveLength(2);
    expect(images.seen).toHaveLength(5);
    expect(new Set(images.seen.map((s) => s.worker))).toEqual(new Set(['worker-a', 'worker-b']));
    // Five images at one token each, charged once although both APIs heard every outcome.
    const user = await t.ctx.db('users').where({ id: me.userId }).first('balance_tenths');
    expect(Number(user.balance_tenths)).toBe(150);
  }, 240_000);

  it('counts login failures across both APIs', async () => {
    const { email, password } = await createUser(t);
    const login = async (api: ApiProcess, pass: string) => {
      const agent = supertest.agent(api.baseUrl);
      return (await signIn(agent, email, pass)).status;
    };
    // Ten wrong guesses, five through each API, use up the consecutive-failure limit of one address...
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await login(apis[i % 2]!, 'Wrong1234'));
    expect(statuses).toEqual(Array(10).fill(422));
    // ...so the right password is refused by both, where each API alone would have seen only five.
    expect(await login(apis[0]!, password)).toBe(429);
    expect(await login(apis[1]!, password)).toBe(429);
  }, 60_000);
});
