import { X509Certificate } from 'node:crypto';
import { libraryPaths } from './library';
import { C2paThread, type RawReport } from './thread';

/** A file's Content Credentials as a verifier sees them: c2pa-ts's checks, and the trust decision made here. */
export interface ContentCredentialsReport extends RawReport {
  /** The signing certificate chains up to one of the trust anchors given. */
  trusted: boolean;
  /** The codes of every failed check (`signingCredential.untrusted` for a chain no anchor vouches for). */
  failures: string[];
}

const TRUSTED = 'signingCredential.trusted';
const UNTRUSTED = 'signingCredential.untrusted';

/**
 * c2pa-ts 0.9.4 checks the signing certificate's profile (key usage, validity...) and reports that as
 * `signingCredential.trusted`, but it has no trust list. The trust decision is made here instead: the embedded
 * chain must link, each certificate signed by the next, to one of `anchors` (DER), or the entry becomes
 * `signingCredential.untrusted`, a failure as in c2pa-rs.
 */
export function judgeTrust(raw: RawReport, anchors: readonly Buffer[]): ContentCredentialsReport {
  const trusted = raw.manifest !== null && chainsToAnchor(raw.manifest.certificates, anchors);
  const statuses = raw.statuses.map((s) =>
    s.code === TRUSTED && !trusted
      ? { ...s, code: UNTRUSTED, explanation: 'the signing certificate chains to no trust anchor', success: false }
      : s,
  );
  return { ...raw, statuses, trusted, failures: statuses.filter((s) => !s.success).map((s) => s.code) };
}

function chainsToAnchor(chainDer: readonly Uint8Array[], anchorsDer: readonly Buffer[]): boolean {
  const chain = chainDer.map((der) => new X509Certificate(Buffer.from(der)));
  const anchors = anchorsDer.map((der) => new X509Certificate(der));
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (anchors.some((a) => a.raw.equals(cert.raw) || (cert.checkIssued(a) && cert.verify(a.publicKey)))) return true;
    const issuer = chain[i + 1];
    // The chain must link: a certificate further up vouches for this one only if it signed it.
    if (!issuer || !cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) return false;
  }
  return false;
}

/** Reads one file in a thread of its own (for checks and scripts; the worker's signer has its own thread). */
export async function readContentCredentials(
  bytes: Buffer,
  anchors: readonly Buffer[] = [],
): Promise<ContentCredentialsReport> {
  const thread = new C2paThread(libraryPaths());
  try {
    return judgeTrust(await thread.read(bytes), anchors);
  } finally {
    await thread.close();
  }
}
