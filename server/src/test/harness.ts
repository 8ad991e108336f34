import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import supertest from 'supertest';
import { createApp } from '../app';
import { closeDeps, openDeps } from '../bootstrap';
import { loadConfig, type Config } from '../config';
import type { AppContext } from '../context';
import { createLogger } from '@imagestudio/runtime';
import { TEST_DATABASE_URL, TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';

export interface TestContext {
  app: Express;
  ctx: AppContext;
  config: Config;
  /** A cookie-keeping client, like one browser. */
  agent(): supertest.Agent;
  close(): Promise<void>;
}

/**
 * Builds the real app on the real services (test database, test Redis dbs, an embedded S3 server in a
 * temporary folder). Each context gets its own BullMQ prefix, so queues of parallel tests never mix.
 * Tests never truncate shared tables: they create their own users and rows with unique values.
 */
export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagestudio-s3-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_REDIS_DB: String(TEST_QUEUE_REDIS_DB),
    QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
    S3_LOCAL_DIR: s3Dir,
    S3_LOCAL_PORT: '0',
    APP_URL: 'http://127.0.0.1:3999',
    MAIL_OUTBOX_FILE: path.join(s3Dir, 'mail-outbox.jsonl'),
    ...env,
  });
  const deps = await openDeps(config, createLogger(config.LOG_LEVEL, 'api'));
  const app = createApp(deps);
  const ctx = app.locals.ctx as AppContext;
  return {
    app,
    ctx,
    config,
    agent: () => supertest.agent(app),
    close: async () => {
      await closeDeps(ctx);
      fs.rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}

/** A unique email for one test, so tests can share the database without cleaning it. */
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.test`;
}
