import { isPublicAddress, SPECIAL_PURPOSE_RANGES } from './callback-url';

/**
 * Table-driven: each special-purpose range by its first and last address (and what the issue found accepted:
 * IPv4-compatible IPv6 spellings of loopback and the metadata address), then global unicast addresses that
 * must stay accepted.
 */
const REFUSED: Array<[range: string, addresses: string[]]> = [
  ['0.0.0.0/8', ['0.0.0.0', '0.255.255.255']],
  ['10.0.0.0/8', ['10.0.0.0', '10.255.255.255']],
  ['100.64.0.0/10', ['100.64.0.0', '100.127.255.255']],
  ['127.0.0.0/8', ['127.0.0.1', '127.255.255.255']],
  ['169.254.0.0/16', ['169.254.0.0', '169.254.169.254']],
  ['172.16.0.0/12', ['172.16.0.0', '172.31.255.255']],
  ['192.0.0.0/24', ['192.0.0.0', '192.0.0.8', '192.0.0.170', '192.0.0.255']],
  ['192.0.2.0/24', ['192.0.2.0', '192.0.2.255']],
  ['192.31.196.0/24', ['192.31.196.0', '192.31.196.255']],
  ['192.52.193.0/24', ['192.52.193.0', '192.52.193.255']],
  ['192.88.99.0/24', ['192.88.99.0', '192.88.99.255']],
  ['192.168.0.0/16', ['192.168.0.0', '192.168.255.255']],
  ['192.175.48.0/24', ['192.175.48.0', '192.175.48.255']],
  ['198.18.0.0/15', ['198.18.0.0', '198.19.255.255']],
  ['198.51.100.0/24', ['198.51.100.0', '198.51.100.255']],
  ['203.0.113.0/24', ['203.0.113.0', '203.0.113.255']],
  ['224.0.0.0/4', ['224.0.0.1', '239.255.255.255']],
  ['240.0.0.0/4', ['240.0.0.0', '255.255.255.255']],
  ['::/96', ['::', '::1', '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::8.8.8.8', '::ffff:ffff']],
  ['::ffff:0:0/96 as IPv4', ['::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1']],
  ['64:ff9b::/96', ['64:ff9b::', '64:ff9b::7f00:1', '64:ff9b::8.8.8.8']],
  ['64:ff9b:1::/48', ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff']],
  ['100::/64', ['100::', '100::ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64', ['100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff']],
  ['2001::/23', ['2001::', '2001:0:4136:e378::1', '2001:2::1', '2001:20::1', '2001:1ff:ffff::1']],
  ['2001:db8::/32', ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2002::/16', ['2002::', '2002:7f00:1::1', '2002:ffff::1']],
  ['2620:4f:8000::/48', ['2620:4f:8000::', '2620:4f:8000:ffff::1']],
  ['3fff::/20', ['3fff::', '3fff:fff:ffff::1']],
  ['5f00::/16', ['5f00::', '5f00:ffff::1']],
  ['fc00::/7', ['fc00::', 'fd12:3456::1', 'fdff:ffff::1']],
  ['fe80::/10', ['fe80::', 'febf:ffff::1']],
  ['fec0::/10', ['fec0::', 'feff:ffff::1']],
  ['ff00::/8', ['ff00::', 'ff02::1', 'ffff:ffff::1']],
  ['outside 2000::/3', ['1::1', '4000::1', 'e000::1']],
];

const ACCEPTED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '192.0.3.1',
  '100.128.0.1',
  '172.32.0.1',
  '::ffff:8.8.8.8',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2a00:1450:4001::1',
  '2620:4f:8001::1',
];

describe('callback_url addresses', () => {
  it.each(REFUSED)('refuses %s', (_range, addresses) => {
    for (const address of addresses) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });

  it('covers every range of the table', () => {
    for (const range of SPECIAL_PURPOSE_RANGES) expect(REFUSED.map(([r]) => r)).toContain(range);
  });

  it.each(ACCEPTED)('accepts the global unicast address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});
