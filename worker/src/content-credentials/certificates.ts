import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

/**
 * The signing certificate chain and key: the operator's PEM files, or a development chain made once in a folder
 * of the worker's. C2PA validators refuse a self-signed signing certificate (c2pa-rs and c2pa-ts both check the
 * certificate profile), so the development chain is a self-signed root with a signing certificate under it.
 */
export interface SigningMaterial {
  /** DER certificates, the signing certificate first, then its issuers. */
  chain: Buffer[];
  /** The private key as PKCS#8 DER (the signing thread imports it). */
  keyPkcs8: Buffer;
  /** The COSE algorithm and how node:crypto signs with it. */
  algorithm: SigningAlgorithm;
  /** Where it came from: the operator's files, or the development folder (made now or earlier). */
  source: 'operator' | 'development (made now)' | 'development';
}

export interface SigningAlgorithm {
  /** COSE identifier: ES256 -7, ES384 -35, EdDSA -8, PS256 -37. */
  cose: number;
  name: string;
  /** The digest node:crypto.sign takes (null for Ed25519, which hashes itself). */
  hash: 'sha256' | 'sha384' | 'sha512' | null;
  /** ECDSA signatures as r|s (COSE, RFC 9053), RSA with PSS padding. */
  ecdsa: boolean;
  pss: boolean;
}

const EC_ALGORITHMS: Record<string, SigningAlgorithm> = {
  prime256v1: { cose: -7, name: 'ES256', hash: 'sha256', ecdsa: true, pss: false },
  secp384r1: { cose: -35, name: 'ES384', hash: 'sha384', ecdsa: true, pss: false },
};

/** The COSE algorithm a key signs with; throws for a key kind C2PA does not take. */
export function algorithmOf(key: crypto.KeyObject): SigningAlgorithm {
  const kind = key.asymmetricKeyType;
  if (kind === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
    const algorithm = EC_ALGORITHMS[curve];
    // P-521 (ES512) is left out: c2pa-ts 0.9.4 did not validate its own ES512 signatures in a trial.
    if (!algorithm) throw new Error(`EC curve ${curve} is not one this worker signs with (P-256, P-384)`);
    return algorithm;
  }
  if (kind === 'ed25519') return { cose: -8, name: 'Ed25519', hash: null, ecdsa: false, pss: false };
  if (kind === 'rsa' || kind === 'rsa-pss')
    return { cose: -37, name: 'PS256', hash: 'sha256', ecdsa: false, pss: true };
  throw new Error(`a ${kind} key cannot sign C2PA manifests (use EC P-256, Ed25519 or RSA)`);
}

/** Every CERTIFICATE block of a PEM text as DER. */
export function pemCertificates(pem: string): Buffer[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => Buffer.from(new crypto.X509Certificate(block).raw));
}

/**
 * The operator's chain and key: the key must belong to the first certificate (checked here, so a wrong pair
 * stops the worker at start rather than failing every AI job).
 */
export function loadSigningFiles(certFile: string, keyFile: string): SigningMaterial {
  const chain = pemCertificates(fs.readFileSync(certFile, 'utf8'));
  if (chain.length === 0) throw new Error(`${certFile} holds no PEM certificate`);
  const key = crypto.createPrivateKey(fs.readFileSync(keyFile));
  const leaf = new crypto.X509Certificate(chain[0]!);
  if (!leaf.checkPrivateKey(key))
    throw new Error(`${keyFile} is not the private key of the first certificate of ${certFile}`);
  return {
    chain,
    keyPkcs8: key.export({ type: 'pkcs8', format: 'der' }),
    algorithm: algorithmOf(key),
    source: 'operator',
  };
}

const DEV_FILES = { chain: 'dev-chain.pem', key: 'dev-key.pem', root: 'dev-root.pem' } as const;

/**
 * The development chain in `dir`, made there the first time: written to a temporary folder and renamed into
 * place, so two workers starting at once on one volume end up with the same chain.
 */
export async function developmentMaterial(dir: string): Promise<SigningMaterial> {
  const existing = readDevelopment(dir);
  if (existing) return existing;
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, '.content-credentials-'));
  try {
    const made = await makeDevelopmentChain();
    fs.writeFileSync(path.join(staging, DEV_FILES.chain), made.chainPem);
    fs.writeFileSync(path.join(staging, DEV_FILES.key), made.keyPem, { mode: 0o600 });
    fs.writeFileSync(path.join(staging, DEV_FILES.root), made.rootPem);
    try {
      fs.renameSync(staging, dir);
      return { ...readDevelopment(dir)!, source: 'development (made now)' };
    } catch (err) {
      // Another worker made it first: use theirs.
      const theirs = readDevelopment(dir);
      if (theirs) return theirs;
      throw err;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function readDevelopment(dir: string): SigningMaterial | undefined {
  const chainFile = path.join(dir, DEV_FILES.chain);
  const keyFile = path.join(dir, DEV_FILES.key);
  if (!fs.existsSync(chainFile) || !fs.existsSync(keyFile)) return undefined;
  return { ...loadSigningFiles(chainFile, keyFile), source: 'development' };
}

/** The development root's file (for a verifier's trust list while testing). */
export function developmentRootFile(dir: string): string {
  return path.join(dir, DEV_FILES.root);
}

/** node's WebCrypto, handed to @peculiar/x509 explicitly rather than set as its global provider. */
const webcrypto = crypto.webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1];

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';
const DEV_YEARS = 5;

/**
 * A self-signed root and an ES256 signing certificate under it, with the extensions the C2PA certificate profile
 * asks for: the signing certificate is no CA, has a critical key usage of digitalSignature, an extended key usage
 * of emailProtection and the root's key identifier.
 */
export async function makeDevelopmentChain(
  // The signing key's kind: ES256 for the worker's own chain; tests try the others an operator may bring.
  signerKey:
    crypto.webcrypto.EcKeyGenParams | crypto.webcrypto.RsaHashedKeyGenParams | { name: 'Ed25519' } = ECDSA_P256,
): Promise<{ chainPem: string; keyPem: string; rootPem: string }> {
  const names = {
    root: 'CN=imagestudio development root (untrusted),O=imagestudio development',
    signer: 'CN=imagestudio development signer (untrusted),O=imagestudio development',
  };
  const subtle = crypto.webcrypto.subtle;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + DEV_YEARS * 365 * 86_400_000);
  const serial = () =>
    crypto
      .randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1');
  const rootKeys = (await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: names.root,
      notBefore,
      notAfter,
      keys: rootKeys,
      signingAlgorithm: ECDSA_P256,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  const signerKeys = (await subtle.generateKey(signerKey as crypto.webcrypto.EcKeyGenParams, true, [
    'sign',
    'verify',
  ])) as crypto.webcrypto.CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject: names.signer,
      issuer: root.subject,
      notBefore,
      notAfter,
      signingKey: rootKeys.privateKey,
      publicKey: signerKeys.publicKey,
      signingAlgorithm: ECDSA_P256,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([EMAIL_PROTECTION], false),
        await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey, false, webcrypto),
        await x509.AuthorityKeyIdentifierExtension.create(root, false, webcrypto),
      ],
    },
    webcrypto,
  );
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', signerKeys.privateKey));
  const keyPem = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return {
    chainPem: `${signer.toString('pem')}\n${root.toString('pem')}\n`,
    keyPem,
    rootPem: `${root.toString('pem')}\n`,
  };
}
