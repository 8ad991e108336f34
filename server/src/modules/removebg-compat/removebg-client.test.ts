import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createTestContext, type TestContext } from '../../test/harness';
import { localServer, type LocalServer } from '../../test/local-server';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { workerFor } from '../jobs/jobs.test-support';
import { balanceAndJobs, keyHolder } from './removebg.test-support';

/**
 * The published npm `remove.bg` client (1.3.0, unmodified) against our /v1.0 API: its URL is hard-coded to
 * https://api.remove.bg, so the app is served over TLS with a certificate for that name from a CA made here for
 * this run (openssl; no key is ever committed), and a child process that trusts the CA (NODE_EXTRA_CA_CERTS)
 * and resolves the name to loopback runs the client (test-support/removebg-client.child.cjs).
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let tls: https.Server;
let images: LocalServer;
let dir: string;
let photo: Buffer;

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A throw-away CA and a certificate for api.remove.bg signed by it, valid for a day. */
function makeCertificates(): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=removebg test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=api.remove.bg']);
  fs.writeFileSync(
    path.join(dir, 'leaf.ext'),
    'subjectAltName=DNS:api.remove.bg\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl([
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '1',
    '-extfile',
    'leaf.ext',
  ]);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'removebg-client-'));
  makeCertificates();
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', IMAGE_URL_ALLOW_HOSTS: '127.0.0.1' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  photo = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#884422' } })
    .jpeg()
    .toBuffer();
  fs.writeFileSync(path.join(dir, 'photo.jpg'), photo);
  tls = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'leaf.key')), cert: fs.readFileSync(path.join(dir, 'leaf.pem')) },
    t.app,
  );
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  images = localServer((_req, res) => res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(photo));
  await images.listen();
});

afterAll(async () => {
  tls.closeAllConnections();
  await new Promise((resolve) => tls.close(resolve));
  await images.close();
  await worker.close();
  await stopEvents();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  ok: boolean;
  value?: Record<string, unknown>;
  error?: unknown;
}

function runClient(options: Record<string, unknown>): Promise<Record<string, Outcome>> {
  const child = path.join(__dirname, 'test-support', 'removebg-client.child.cjs');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [child, JSON.stringify(options)],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') }, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`${err.message}\n${stderr}`));
        resolve(JSON.parse(stdout) as Record<string, Outcome>);
      },
    );
  });
}

describe('the npm remove.bg client, unmodified', () => {
  it('resolves file, base64 and URL calls with our headers and rejects a bad key with the errors array', async () => {
    const { userId, key } = await keyHolder(t);
    const outputFile = path.join(dir, 'out.png');
    const results = await runClient({
      port: (tls.address() as AddressInfo).port,
      key,
      badKey: 'isk_live_wrong',
      file: path.join(dir, 'photo.jpg'),
      base64: photo.toString('base64'),
      url: images.url('/photo.jpg'),
      outputFile,
    });

    // crop=true on an opaque photo: the whole photo is the subject.
    expect(results.file).toMatchObject({
      ok: true,
      value: { creditsCharged: '0.3', resultWidth: '120', resultHeight: '90', detectedType: 'other' },
    });
    expect(Number(results.file!.value!.rateLimit)).toBe(t.config.API_KEY_RATE_PER_MINUTE);
    expect((await sharp(fs.readFileSync(outputFile)).metadata()).width).toBe(120);
    expect(results.base64).toMatchObject({
      ok: true,
      value: { creditsCharged: '1', resultWidth: '120', resultHeight: '90' },
    });
    expect(results.url).toMatchObject({ ok: true, value: { creditsCharged: '0.3', resultWidth: '120' } });
    expect(results.badKey).toEqual({ ok: false, error: [{ title: 'API Key invalid', code: 'auth_failed' }] });

    // Three ordinary jobs in the customer's history, each charged at its size's price.
    expect(await balanceAndJobs(t, userId)).toEqual({ balance: 100 - 3 - 10 - 3, jobs: 3 });
    const jobs = await t.ctx.db('image_jobs').where({ user_id: userId }).orderBy('created_at');
    expect(jobs.map((j: { params: Record<string, unknown> }) => j.params)).toEqual([
      expect.objectContaining({ crop_to_subject: true }),
      expect.objectContaining({ output_format: 'auto' }),
      expect.objectContaining({ background_color: '#81d4fa' }),
    ]);
  });
});
