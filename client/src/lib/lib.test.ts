import { formatPrice } from '@imagestudio/contracts';
import { guessCountry } from './country-guess';
import { safeRedirect, loginRedirectPath } from './redirect';
import {
  formatDate,
  formatDateTime,
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

describe('country guess from the browser', () => {
  it("takes the time zone's country whatever the language", () => {
    expect(guessCountry(['en-US', 'en'], 'Europe/Vienna')).toBe('AT');
    expect(guessCountry(['de'], 'America/New_York')).toBe('US');
  });

  it("lets a language region choose among the countries of a shared zone, else the zone's principal one", () => {
    expect(guessCountry(['de-LI', 'de'], 'Europe/Zurich')).toBe('LI');
    expect(guessCountry(['fr-FR'], 'Europe/Zurich')).toBe('CH');
  });

  it('falls back to the first language region without a country zone, and to null without either', () => {
    expect(guessCountry(['pt-BR', 'en-GB'], 'UTC')).toBe('BR');
    expect(guessCountry(['en', 'not a tag!'], 'Etc/GMT+3')).toBeNull();
    expect(guessCountry([], undefined)).toBeNull();
  });
});

describe('formats', () => {
  it('tokens, join dates and other dates', () => {
    expect(formatTokens(10)).toBe('10');
    expect(formatTokens(10.5)).toBe('10.5');
    expect(formatTokens(0)).toBe('0');
    expect(formatDate('2026-11-21T10:00:00')).toBe('Nov 21, 2026');
    expect(formatDate('2026-01-05T10:00:00')).toBe('Jan 5, 2026');
    expect(formatDateTime('2026-01-05T14:05:00')).toBe('Jan 5, 2026, 2:05 PM');
    expect(formatDate(null)).toBe('');
  });
});

describe('client env', () => {
  it('defaults and rejects bad values', () => {
    expect(parseEnv({})).toEqual({ apiBaseUrl: '/api' });
    expect(parseEnv({ API_BASE_URL: 'https://api.example/v/' })).toEqual({ apiBaseUrl: 'https://api.example/v' });
    expect(() => parseEnv({ API_BASE_URL: 'ftp://x' })).toThrow(/API_BASE_URL/);
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
    expect(formatDate('2026-01-05T10:00:00')).toBe('05.01.2026');
    expect(formatDateTime('2026-01-05T14:05:00')).toBe('05.01.2026, 14:05');
    setNumberLocale('en');
    expect(formatTokens(1234.5)).toBe('1,234.5');
  });

  it('falls back to US English for a language Intl does not know', () => {
    expect(localeFor('not a locale!')).toBe('en-US');
  });
});
