import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BATCH_LIMITS } from '@imagestudio/contracts';
import { ConfigError, loadConfig } from './config';

describe('server configuration', () => {
  it('lists every invalid variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^DATABASE_URL:/m);
    expect(problems).toMatch(/^LOG_LEVEL:/m);
  });

  it('gives the largest upload (a full batch) time to arrive over a 3 Mbit/s uplink before answering 408', () => {
    const secondsAt3Mbit = (BATCH_LIMITS.maxTotalBytes * 8) / 3_000_000;
    expect(loadConfig({}).HTTP_REQUEST_TIMEOUT_MS).toBeGreaterThanOrEqual(secondsAt3Mbit * 1000);
  });

  it('treats empty values as unset and derives APP_URL from the port', () => {
    const config = loadConfig({ S3_ENDPOINT: '', PORT: '4100' });
    expect(config.S3_ENDPOINT).toBeUndefined();
    expect(config.APP_URL).toBe('http://localhost:4100');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('refuses the development session secret, the embedded S3 and TRUST_PROXY=true in production', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      S3_ENDPOINT: 'https://s3.example.test',
    };
    expect(loadConfig(production).NODE_ENV).toBe('production');
    expect(loadConfig({ ...production, TRUST_PROXY: '1' }).TRUST_PROXY).toBe('1');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', TRUST_PROXY: 'true' });
    } catch (err) {
      expect((err as ConfigError).problems.map((p) => p.split(':')[0])).toEqual([
        'SESSION_SECRET',
        'S3_ENDPOINT',
        'TRUST_PROXY',
      ]);
    }
    expect(() => loadConfig({ ...production, S3_ENDPOINT: '' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });

  it('starts in production without SMTP_URL (mail goes to the outbox) and with or without a public S3 address', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), S3_ENDPOINT: 'http://minio:9000' };
    const config = loadConfig(production);
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.S3_PUBLIC_ENDPOINT).toBeUndefined();
    expect(loadConfig({ ...production, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' }).S3_PUBLIC_ENDPOINT).toBe(
      'http://localhost:9000',
    );
    expect(() => loadConfig({ ...production, S3_PUBLIC_ENDPOINT: 'localhost' })).toThrow(/S3_PUBLIC_ENDPOINT/);
  });

  it('makes the API exit non-zero at boot, naming each bad variable', () => {
    const root = path.resolve(__dirname, '..', '..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: '-1', REDIS_URL: 'nope' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(/PORT:/);
    expect(run.stderr).toMatch(/REDIS_URL:/);
  });
});
