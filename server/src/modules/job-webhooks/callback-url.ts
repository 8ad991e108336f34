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

/**
 * Every range of IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its updates, as of
 * 2025), plus multicast and the deprecated IPv4-compatible (::/96) and site-local (fec0::/10) blocks. Ranges
 * the registry marks globally reachable (AS112, AMT, NAT64) are refused too: none is a webhook receiver,
 * and the NAT64 prefixes carry any IPv4 address, 127.0.0.1 included.
 */
export const SPECIAL_PURPOSE_RANGES: readonly string[] = [
  // IPv4
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata at 169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (DS-Lite, PCP and TURN anycast, NAT64 discovery)
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.31.196.0/24', // AS112-v4
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // direct delegation AS112 service
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the limited broadcast 255.255.255.255
  // IPv6 (::ffff:0:0/96, IPv4-mapped, is judged as the IPv4 address it carries)
  '::/96', // unspecified, loopback and the deprecated IPv4-compatible addresses (::127.0.0.1, ::7f00:1)
  '64:ff9b::/96', // NAT64 well-known prefix
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '100:0:0:1::/64', // dummy prefix
  '2001::/23', // IETF protocol assignments (Teredo, ORCHIDv2, benchmarking, AMT, AS112, DRIP, ...)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4, which carries any IPv4 address
  '2620:4f:8000::/48', // direct delegation AS112 service
  '3fff::/20', // documentation
  '5f00::/16', // segment routing (SRv6) SIDs
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
];

const SPECIAL = SPECIAL_PURPOSE_RANGES.map((cidr) => ipaddr.parseCIDR(cidr));
/** IPv6's global unicast space: anything outside it is not yet allocated, or special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Only global unicast addresses: none of SPECIAL_PURPOSE_RANGES, and for IPv6 inside 2000::/3. An
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ipaddr.js reads `::a.b.c.d` as the IPv4-mapped ::ffff:a.b.c.d; the URL parser spells it as what it is.
  if (address.includes(':')) address = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (SPECIAL.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

function exemptHosts(config: Config, allowHosts: string): Set<string> {
  if (config.NODE_ENV === 'production') return new Set();
  return new Set(
    allowHosts
      .split(',')
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
 * `allowHosts`, WEBHOOK_ALLOW_HOSTS unless the caller names its own list, outside production). Checking after
 * resolution is what matters: a public name may point at 127.0.0.1 or at the cloud metadata address.
 */
export async function resolvePublic(
  config: Config,
  hostname: string,
  allowHosts: string = config.WEBHOOK_ALLOW_HOSTS,
): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await lookupAll(host);
  } catch {
    throw new CallbackUrlError(CALLBACK_MESSAGES.unresolvable);
  }
  if (addresses.length === 0) throw new CallbackUrlError(CALLBACK_MESSAGES.unresolvable);
  if (exemptHosts(config, allowHosts).has(host)) return addresses;
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
