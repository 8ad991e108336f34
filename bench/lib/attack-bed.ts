import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@imagestudio/runtime';
import { type PrivateRedis, startPrivateRedis } from '@imagestudio/runtime/testing';
import { createApp } from '../../server/src/app';
import { closeDeps, openDeps } from '../../server/src/bootstrap';
import { loadConfig } from '../../server/src/config';
import type { AppContext } from '../../server/src/context';
import { prepareDatabase } from '../../server/src/lib/migrator';
import { createKey } from '../../server/src/modules/api-keys/api-keys.service';
import { registerUser } from '../../server/src/modules/auth/auth.service';
import { applyEntryNow } from '../../server/src/modules/ledger/ledger.service';
import { markEmailVerified } from '../../server/src/modules/users/users.repository';
import { startApiProcess } from '../../server/src/test/processes';
import { startTestWorker } from '../../server/src/test/test-worker';
import type { Browser } from './attack-kit';

/**
 * What the attack section (bench/sections/attack.ts) attacks: the real API as a child process on a private Redis,
 * the configured Postgres and an embedded S3 held by this process, a stand-in worker for jobs; and the accounts,
 * files and forms its items use.
 */

export const ATTACK_PASSWORD = 'Bench1234';
/** DOWNLOAD_STALL_TIMEOUT_MS for the run (60 s by default). */
export const STALL_MS = 10_000;
const FIXTURES = path.resolve(__dirname, '..', '..', 'worker', 'src', 'test-support', 'fixtures');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const ms = (v: number) => `${Math.round(v)} ms`;
/** "3x 200, 1x 429": how often each value came. */
export const count = (values: Array<number | string | null>) => {
  const tally = new Map<string, number>();
  for (const v of values) tally.set(String(v), (tally.get(String(v)) ?? 0) + 1);
  return [...tally].map(([k, n]) => `${n}x ${k}`).join(', ');
};

export type Verdict = 'HELD' | 'BROKEN' | 'ERROR' | 'SKIPPED';
/** What an item measured, and whether the API held. */
export interface ItemOutcome {
  measured: string;
  verdict: Verdict;
}

/** One attack item: what it is, what it sends, and the attack itself. */
export interface AttackItem {
  n: number;
  item: string;
  sent: string;
  run(bed: AttackBed, kit: AttackKit): Promise<ItemOutcome>;
}

export interface AttackBed {
  redis: PrivateRedis;
  /** This process's app context on the same database and storage (accounts, rows, files). */
  ctx: AppContext;
  deps: Awaited<ReturnType<typeof openDeps>>;
  /** The API process's pid and base URL. */
  pid: number;
  base: string;
  /** Stops the stand-in worker (before Redis goes away); close() skips it then. */
  closeWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the private Redis, the embedded S3, the API process and the stand-in worker. */
export async function startAttackBed(): Promise<AttackBed> {
  const redis = await startPrivateRedis();
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-attack-s3-'));
  const queuePrefix = `attack-${randomUUID().slice(0, 8)}`;
  const shared = {
    REDIS_URL: redis.url(0),
    QUEUE_REDIS_DB: '1',
    QUEUE_PREFIX: queuePrefix,
    RATE_LIMIT_PREFIX: `rl-${queuePrefix}`,
  };
  // This process's side: the database (users, balances, rows), the embedded S3 the API and the worker share.
  const config = loadConfig({
    ...process.env,
    ...shared,
    LOG_LEVEL: 'silent',
    S3_LOCAL_PORT: '0',
    S3_LOCAL_DIR: s3Dir,
  });
  await prepareDatabase(config.DATABASE_URL);
  const deps = await openDeps(config, createLogger('silent', 'bench'));
  const ctx = createApp(deps).locals.ctx as AppContext;
  const api = await startApiProcess('attack-api', {
    ...shared,
    DATABASE_URL: config.DATABASE_URL,
    S3_ENDPOINT: deps.storage.endpoint,
    LOG_LEVEL: 'error',
    DOWNLOAD_STALL_TIMEOUT_MS: String(STALL_MS),
    IMAGE_URL_ALLOW_HOSTS: '127.0.0.1',
  });
  const worker = await startTestWorker({
    redisUrl: redis.url(0),
    queueDb: 1,
    queuePrefix,
    s3: { endpoint: deps.storage.endpoint, bucket: deps.storage.bucket },
    tools: ['remove-background'],
    concurrency: 2,
  });
  let workerOpen = true;
  const closeWorker = async () => {
    await worker.close();
    workerOpen = false;
  };
  return {
    redis,
    ctx,
    deps,
    pid: api.child.pid!,
    base: api.baseUrl,
    closeWorker,
    async close() {
      if (workerOpen) await worker.close();
      await api.stop();
      await closeDeps(ctx);
      await redis.dispose();
      fs.rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}

/** The accounts, files and forms the items use. */
export interface AttackKit {
  /** A verified account with this many tokens. */
  account(tag: string, tokens: number): Promise<{ id: string; email: string }>;
  keyOf(userId: string): Promise<string>;
  /** The balance in tenths of a token. */
  balanceOf(userId: string): Promise<number>;
  /** A 64x64 PNG. */
  png64: Buffer;
  imageForm(bytes: Buffer, field?: string, name?: string): FormData;
  /** A finished background removal of the coffee cut-out, ready to re-compose. */
  cutoutJob(browser: Browser): Promise<string>;
  composeForm(fields: Record<string, string>): FormData;
}

/** A heavy re-composition: 2048x2048, blurred background, PNG. */
export const HEAVY_COMPOSE = { canvas: '2048x2048', background_blur: '20', output_format: 'png' };

export async function attackKit(ctx: AppContext): Promise<AttackKit> {
  const account = async (tag: string, tokens: number) => {
    const email = `bench-attack-${tag}-${randomUUID().slice(0, 10)}@example.test`;
    const user = await registerUser(ctx, {
      name: 'Bench',
      surname: 'Attack',
      email,
      phone: '+33612345678',
      phoneE164: '+33612345678',
      password: ATTACK_PASSWORD,
      password_confirmation: ATTACK_PASSWORD,
    });
    await markEmailVerified(ctx.db, user.id);
    const delta = tokens * 10 - Number(user.balance_tenths);
    if (delta !== 0)
      await applyEntryNow(ctx.db, {
        userId: user.id,
        deltaTenths: delta,
        kind: 'adjustment',
        idempotencyKey: `bench-attack:${user.id}`,
        reason: 'bench setup',
      });
    return { id: user.id, email };
  };
  const png64 = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  const coffeeMatte = await sharp(fs.readFileSync(path.join(FIXTURES, 'coffee-300-mask.png')))
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // The stand-in worker takes an upload's own alpha as its matte: the coffee photo with its real matte joined.
  const cutoutPng = await sharp(fs.readFileSync(path.join(FIXTURES, 'coffee-300.png')))
    .joinChannel(coffeeMatte.data, {
      raw: { width: coffeeMatte.info.width, height: coffeeMatte.info.height, channels: 1 },
    })
    .png()
    .toBuffer();
  const imageForm = (bytes: Buffer, field = 'image', name = 'photo.png') => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
    return form;
  };
  return {
    account,
    keyOf: async (userId) => (await createKey(ctx, userId, { name: 'attack script' })).key,
    balanceOf: async (userId) =>
      Number((await ctx.db('users').where({ id: userId }).first('balance_tenths')).balance_tenths),
    png64,
    imageForm,
    cutoutJob: (browser) => cutoutJob(browser, imageForm(cutoutPng)),
    composeForm(fields) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return form;
    },
  };
}

async function cutoutJob(browser: Browser, form: FormData): Promise<string> {
  const res = await browser.request('POST', '/api/tools/remove-background', form);
  if (res.status !== 202) throw new Error(`remove-background answered ${res.status}: ${await res.text()}`);
  const id = ((await res.json()) as { payload: { id: string } }).payload.id;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const view = await browser.request('GET', `/api/jobs/${id}`);
    const status = ((await view.json()) as { payload: { status: string } }).payload.status;
    if (status === 'succeeded') return id;
    if (status === 'failed' || status === 'cancelled' || Date.now() > deadline)
      throw new Error(`cut-out job ended ${status}`);
    await sleep(100);
  }
}
