import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { encodeImage, type OutputFormat } from '../imaging/encode';
import { makeDevelopmentChain, pemCertificates } from './certificates';
import { ContentCredentials } from './content-credentials';
import { readContentCredentials } from './reader';

// Signs real encoder output (the worker's PNG and JPEG with their XMP) with a test-made chain and reads it back
// with c2pa-ts's reader in a thread of its own.
const lines: { msg: string; made?: boolean }[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string });
      done();
    },
  }),
);
let dir: string;
let credentials: ContentCredentials;
let root: Buffer;

const settings = (extra: object = {}) => ({
  C2PA_DEV_CERT_DIR: path.join(dir, 'dev'),
  C2PA_SIGN_ALL_RESULTS: false,
  ...extra,
});
const generator = { name: 'imagestudio-worker', version: '0.1.0' };

function image(seed: number, width = 96, height = 64) {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31 + seed * 17) & 255;
  return { data, width, height, channels: 3 as const };
}

const encode = (format: OutputFormat, seed: number, source = 'trainedAlgorithmicMedia' as const) =>
  encodeImage(image(seed), format, source, 'test');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'c2pa-test-'));
  credentials = await ContentCredentials.start(settings(), logger, generator);
  root = pemCertificates(fs.readFileSync(path.join(dir, 'dev', 'dev-root.pem'), 'utf8'))[0]!;
});

afterAll(async () => {
  await credentials.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('content credentials', () => {
  it('makes the development certificate once, says so in one line, and reuses it', async () => {
    const warned = lines.filter((l) => l.msg.startsWith('content credentials: signing with a development'));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.made).toBe(true);
    const again = await ContentCredentials.start(settings(), logger, generator);
    await again.close();
    expect(again.material.chain[0]!.equals(credentials.material.chain[0]!)).toBe(true);
    expect(lines.filter((l) => l.msg.startsWith('content credentials: signing with a development')).at(-1)!.made).toBe(
      false,
    );
    expect(credentials.material.algorithm.name).toBe('ES256');
    expect((fs.statSync(path.join(dir, 'dev', 'dev-key.pem')).mode & 0o777).toString(8)).toBe('600');
  });

  it('signs a generated PNG: c2pa.created, trainedAlgorithmicMedia, the model; valid, only the trust fails', async () => {
    const png = await encode('png', 1);
    const signing = credentials.forTool('generate')!;
    const signed = await signing.sign(png, 'png', { agent: 'remote:gpt-image-1' }, logger);
    expect(signed.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true);

    const report = await readContentCredentials(signed);
    expect(report.format).toBe('image/png');
    expect(report.failures).toEqual(['signingCredential.untrusted']);
    expect(report.statuses.map((s) => s.code)).toEqual(
      expect.arrayContaining(['claimSignature.validated', 'assertion.dataHash.match', 'assertion.hashedURI.match']),
    );
    expect(report.manifest!.actions).toEqual([
      {
        action: 'c2pa.created',
        digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
        softwareAgent: 'remote:gpt-image-1',
        ingredients: [],
      },
    ]);
    expect(report.manifest!.ingredients).toEqual([]);
    expect(report.manifest!.generator).toEqual(generator);
    // A 2.x claim, labelled urn:c2pa:<uuid>.
    expect(report.manifest!.label).toMatch(/^urn:c2pa:[0-9a-f-]{36}$/);

    // With the development root as a trust anchor nothing fails.
    const trusted = await readContentCredentials(signed, [root]);
    expect(trusted.trusted).toBe(true);
    expect(trusted.failures).toEqual([]);
  });

  it("signs an AI-edited JPEG: c2pa.opened on the input's hash as parentOf, then c2pa.edited by the model", async () => {
    const input = await encode('png', 2);
    const jpeg = await encode('jpeg', 3, 'compositeWithTrainedAlgorithmicMedia' as never);
    const signing = credentials.forTool('ai-background')!;
    const signed = await signing.sign(
      jpeg,
      'jpeg',
      { agent: 'remote:gpt-image-1', input: { bytes: input, name: 'cup.png' } },
      logger,
    );
    const report = await readContentCredentials(signed);
    expect(report.format).toBe('image/jpeg');
    expect(report.failures).toEqual(['signingCredential.untrusted']);
    const [ingredient] = report.manifest!.ingredients;
    expect(ingredient).toMatchObject({
      title: 'cup.png',
      format: 'image/png',
      relationship: 'parentOf',
      instanceId: `sha256:${createHash('sha256').update(input).digest('hex')}`,
    });
    expect(report.manifest!.actions).toEqual([
      {
        action: 'c2pa.opened',
        softwareAgent: 'imagestudio-worker',
        ingredients: [`self#jumbf=c2pa.assertions/${ingredient!.label}`],
      },
      {
        action: 'c2pa.edited',
        digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
        softwareAgent: 'remote:gpt-image-1',
        ingredients: [],
      },
    ]);
  });

  it('a changed pixel byte or a foreign anchor fails the check', async () => {
    const signed = await credentials.forTool('generate')!.sign(await encode('jpeg', 4), 'jpeg', { agent: 'x' }, logger);
    const tampered = Buffer.from(signed);
    tampered[tampered.length - 200]! ^= 0x01;
    const report = await readContentCredentials(tampered, [root]);
    expect(report.failures).toEqual(['assertion.dataHash.mismatch']);
    const other = pemCertificates((await makeDevelopmentChain()).rootPem)[0]!;
    expect((await readContentCredentials(signed, [other])).failures).toEqual(['signingCredential.untrusted']);
  });

  it('leaves cut-outs and upscales unsigned unless C2PA_SIGN_ALL_RESULTS, and WebP as it is', async () => {
    expect(credentials.forTool('upscale')).toBeUndefined();
    expect(credentials.forTool('remove-background')).toBeUndefined();
    const all = await ContentCredentials.start(settings({ C2PA_SIGN_ALL_RESULTS: true }), logger, generator);
    try {
      const input = await encode('png', 5);
      const signed = await all
        .forTool('upscale')!
        .sign(await encode('png', 6), 'png', { agent: 'cpu', input: { bytes: input } }, logger);
      const report = await readContentCredentials(signed);
      expect(report.manifest!.actions.map((a) => a.action)).toEqual(['c2pa.opened', 'c2pa.edited']);
      const webp = await encode('webp', 7);
      expect(await all.forTool('generate')!.sign(webp, 'webp', { agent: 'x' }, logger)).toBe(webp);
      expect((await readContentCredentials(webp)).format).toBeNull();
    } finally {
      await all.close();
    }
  });

  it.each([
    ['ES384', { name: 'ECDSA', namedCurve: 'P-384' }],
    ['Ed25519', { name: 'Ed25519' }],
    ['PS256', { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }],
  ] as const)("signs with an operator's %s key", async (name, key) => {
    const made = await makeDevelopmentChain(key);
    fs.writeFileSync(path.join(dir, `${name}.pem`), made.chainPem);
    fs.writeFileSync(path.join(dir, `${name}.key`), made.keyPem);
    const operator = await ContentCredentials.start(
      settings({
        C2PA_SIGN_CERT_FILE: path.join(dir, `${name}.pem`),
        C2PA_SIGN_KEY_FILE: path.join(dir, `${name}.key`),
      }),
      logger,
      generator,
    );
    try {
      expect(operator.material.algorithm.name).toBe(name);
      const signed = await operator.forTool('generate')!.sign(await encode('png', 9), 'png', { agent: 'x' }, logger);
      expect((await readContentCredentials(signed, pemCertificates(made.rootPem))).failures).toEqual([]);
    } finally {
      await operator.close();
    }
  });

  it('refuses a P-521 key (c2pa-ts does not validate ES512)', async () => {
    const made = await makeDevelopmentChain({ name: 'ECDSA', namedCurve: 'P-521' });
    fs.writeFileSync(path.join(dir, 'p521.pem'), made.chainPem);
    fs.writeFileSync(path.join(dir, 'p521.key'), made.keyPem);
    await expect(
      ContentCredentials.start(
        settings({ C2PA_SIGN_CERT_FILE: path.join(dir, 'p521.pem'), C2PA_SIGN_KEY_FILE: path.join(dir, 'p521.key') }),
        logger,
        generator,
      ),
    ).rejects.toThrow('EC curve secp521r1 is not one this worker signs with');
  });

  it("takes the operator's PEM files and refuses a key that is not the certificate's", async () => {
    const a = await makeDevelopmentChain();
    const b = await makeDevelopmentChain();
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const cert = write('chain.pem', a.chainPem);
    const operator = await ContentCredentials.start(
      settings({ C2PA_SIGN_CERT_FILE: cert, C2PA_SIGN_KEY_FILE: write('key.pem', a.keyPem) }),
      logger,
      generator,
    );
    try {
      expect(operator.material.source).toBe('operator');
      const signed = await operator.forTool('generate')!.sign(await encode('png', 8), 'png', { agent: 'x' }, logger);
      const anchor = pemCertificates(a.rootPem)[0]!;
      expect((await readContentCredentials(signed, [anchor])).failures).toEqual([]);
    } finally {
      await operator.close();
    }
    await expect(
      ContentCredentials.start(
        settings({ C2PA_SIGN_CERT_FILE: cert, C2PA_SIGN_KEY_FILE: write('other.pem', b.keyPem) }),
        logger,
        generator,
      ),
    ).rejects.toThrow('is not the private key of the first certificate');
    await expect(ContentCredentials.start(settings({ C2PA_SIGN_CERT_FILE: cert }), logger, generator)).rejects.toThrow(
      'set together or not at all',
    );
  });
});
