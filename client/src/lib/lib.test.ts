import { formatPrice } from '@imagestudio/contracts';
import { lookupCountry, parseIpCountryReply, resetCountryLookup } from './ip-country';
import { safeRedirect, loginRedirectPath } from './redirect';
import {
  formatDate,
  formatJoinDate,
  formatTime,
  formatTokens,
  localeFor,
  numberLocale,
  setNumberLocale,
} from './format';
import { parseEnv } from '../config/env';

describe('safeRedirect', () => {
  it('honours same-origin paths only', () => {
    expect(safeRedirect('/account/profile?x=1#a', '/account')).toBe('/account/profile?x=1#a');
    expect(safeRedirect('/account/./history/../profile', '/account')).toBe('/account/profile');
    for (const bad of [
      '//evil.com/x',
      '/\\evil.com',
      'https://evil.com',
      'javascript:alert(1)',
      '',
      null,
      '/.//evil.example/x',
      '/..//x',
      '/%2e%2e//x',
      '/%2E%2E//x',
      '/./\\evil.example',
      '/a/../..//evil.example',
    ]) {
      expect(safeRedirect(bad, '/account')).toBe('/account');
    }
  });

  it('builds the login path with the full path encoded', () => {
    expect(loginRedirectPath('/account/profile?a=1')).toBe('/login?redirect=%2Faccount%2Fprofile%3Fa%3D1');
  });
});

describe('IP-to-country lookup', () => {
  beforeEach(() => resetCountryLookup());

  it('reads the code at characters 3-4 of a reply starting with 1', () => {
    expect(parseIpCountryReply('1;DE;DEU;Germany')).toBe('DE');
    expect(parseIpCountryReply('0;;;WRONG INPUT')).toBeNull();
    expect(parseIpCountryReply('2;;;UNKNOWN')).toBeNull();
  });

  it('asks once and gives null when the service is unreachable', async () => {
    const fetchImpl = jest.fn().mockRejectedValue(new TypeError('offline'));
    expect(await lookupCountry('https://ip.example/s', 1000, fetchImpl)).toBeNull();
    expect(await lookupCountry('https://ip.example/s', 1000, fetchImpl)).toBeNull();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(await lookupCountry('', 1000, fetchImpl)).toBeNull();
  });

  it('gives the country when the service answers', async () => {
    const fetchImpl = jest.fn().mockResolvedValue({ ok: true, text: () => Promise.resolve('1;US;USA;United States') });
    expect(await lookupCountry('https://ip.example/s', 1000, fetchImpl)).toBe('US');
  });
});

describe('formats', () => {
  it('tokens, join dates and other dates', () => {
    expect(formatTokens(10)).toBe('10');
    expect(formatTokens(10.5)).toBe('10.5');
    expect(formatTokens(0)).toBe('0');
    expect(formatJoinDate('2026-11-21T10:00:00Z')).toBe('Nov 21, 2026');
    expect(formatDate('2026-01-05T10:00:00')).toBe('05.01.2026');
    expect(formatDate(null)).toBe('');
  });
});

describe('client env', () => {
  it('defaults and rejects bad values', () => {
    expect(parseEnv({})).toEqual({ apiBaseUrl: '/api', ipCountryUrl: '' });
    expect(() => parseEnv({ API_BASE_URL: 'ftp://x', IP_COUNTRY_URL: 'nope' })).toThrow(/API_BASE_URL.*IP_COUNTRY_URL/);
  });
});

describe('German number and money style', () => {
  afterEach(() => setNumberLocale('en'));

  it('formats tokens, times and prices the German way through Intl', () => {
    setNumberLocale('de');
    expect(numberLocale()).toBe('de-DE');
    expect(formatTokens(1234.5)).toBe('1.234,5');
    expect(formatPrice(1234.5, 'EUR', '€', numberLocale()).replace(/\s/g, ' ')).toBe('1.234,50 €');
    expect(formatTime('2026-11-24T14:05:00')).toBe('14:05');
    setNumberLocale('en');
    expect(formatTokens(1234.5)).toBe('1,234.5');
  });

  it('falls back to US English for a language Intl does not know', () => {
    expect(localeFor('not a locale!')).toBe('en-US');
  });
});
