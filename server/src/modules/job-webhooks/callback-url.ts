import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config';
import { validationError } from '../../lib/errors';

const lookupAll = promisify(
  (host: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
    dnsLookup(host, { all: true, verbatim: true }, cb),
);

export const CALLBACK_MESSAGES = {
  invalid: 'The callback URL must be an absolute https URL.',
  insecure: 'The callback URL must use https.',
  privateAddress: 'The callback URL must point to a public internet address.',
  unresolvable: "The callback URL's host could not be resolved.",
} as const;

const MAX_URL_LENGTH = 2048;

/** A callback URL refused by the rules below; the message is user-facing. */
export class CallbackUrlError extends Error {}

/** Only global unicast addresses; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

function exemptHosts(config: Config): Set<string> {
  if (config.NODE_ENV === 'production') return new Set();
  return new Set(
    config.WEBHOOK_ALLOW_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The URL when its form is acceptable (https, or http outside production; no credentials); throws otherwise. */
export function parseCallbackUrl(config: Config, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackUrlError(CALLBACK_MESSAGES.invalid);
  }
  if (raw.length > MAX_URL_LENGTH || url.username || url.password || !['https:', 'http:'].includes(url.protocol)) {
    throw new CallbackUrlError(CALLBACK_MESSAGES.invalid);
  }
  if (url.protocol === 'http:' && config.NODE_ENV === 'production')
    throw new CallbackUrlError(CALLBACK_MESSAGES.insecure);
  return url;
}

/**
 * Resolves the host and returns its addresses when every one is public (or the host is exempted by
 * WEBHOOK_ALLOW_HOSTS outside production). Checking after resolution is what matters: a public name
 * may point at 127.0.0.1 or at the cloud metadata address.
 */
export async function resolvePublic(config: Config, hostname: string): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await lookupAll(host);
  } catch {
    throw new CallbackUrlError(CALLBACK_MESSAGES.unresolvable);
  }
  if (addresses.length === 0) throw new CallbackUrlError(CALLBACK_MESSAGES.unresolvable);
  if (exemptHosts(config).has(host)) return addresses;
  if (!addresses.every((a) => isPublicAddress(a.address))) throw new CallbackUrlError(CALLBACK_MESSAGES.privateAddress);
  return addresses;
}

/**
 * The `callback_url` of a tool call, checked before anything is charged: undefined when none was
 * given, a 422 on `callback_url` when it breaks a rule.
 */
export async function checkCallbackUrl(config: Config, value: unknown): Promise<string | undefined> {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    if (typeof value !== 'string') throw new CallbackUrlError(CALLBACK_MESSAGES.invalid);
    const url = parseCallbackUrl(config, value.trim());
    await resolvePublic(config, url.hostname);
    return url.toString();
  } catch (err) {
    if (err instanceof CallbackUrlError) throw validationError({ callback_url: [err.message] });
    throw err;
  }
}
