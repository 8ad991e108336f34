import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';

/** How long a verification link stays valid. */
/** Verification links live 24 hours: long enough for a customer who reads the email the next day. */
export const VERIFICATION_LINK_TTL_S = 24 * 60 * 60;

/** The key that signs links: derived from SESSION_SECRET, so no second secret has to be managed. */
function signingKey(config: Config): Buffer {
  return createHmac('sha256', config.SESSION_SECRET).update('email-verification-links').digest();
}

/** A hash of the address the link was made for: a link stops working if the email changes. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

function sign(config: Config, userId: string, hash: string, expires: number): string {
  return createHmac('sha256', signingKey(config)).update(`${userId}/${hash}?expires=${expires}`).digest('hex');
}

/** `APP_URL/api/email/verify/{id}/{hash}?expires=...&signature=...`, valid for VERIFICATION_LINK_TTL_S. */
export function verificationUrl(config: Config, userId: string, email: string, now = Date.now()): string {
  const hash = emailHash(email);
  const expires = Math.floor(now / 1000) + VERIFICATION_LINK_TTL_S;
  return `${config.APP_URL}/api/email/verify/${userId}/${hash}?expires=${expires}&signature=${sign(config, userId, hash, expires)}`;
}

/** True when the signature is ours, the link has not expired and it was made for `currentEmail`. */
export function isValidVerification(
  config: Config,
  link: { userId: string; hash: string; expires: string; signature: string },
  currentEmail: string,
  now = Date.now(),
): boolean {
  const expires = Number(link.expires);
  if (!Number.isInteger(expires) || expires * 1000 < now) return false;
  const expected = Buffer.from(sign(config, link.userId, link.hash, expires), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(link.signature) ? link.signature : '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return link.hash === emailHash(currentEmail);
}
