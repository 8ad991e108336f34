import fs from 'node:fs';
import path from 'node:path';
import { en } from './en';
import { namespaces } from './namespaces';
import { interpolate, translate } from './translate';

const STRINGS_DIR = path.resolve(__dirname, '../../../../migrations/seeds/strings');

describe('UI strings seed', () => {
  it.each(Object.entries(namespaces))(
    'strings/%s.json has every key with the same English text and a German text',
    (ns, messages) => {
      const seed = JSON.parse(fs.readFileSync(path.join(STRINGS_DIR, `${ns}.json`), 'utf8')) as {
        en: Record<string, string>;
        de: Record<string, string>;
      };
      for (const [key, text] of Object.entries(messages)) {
        expect([key, seed.en[key]]).toEqual([key, text]);
        expect([key, typeof seed.de[key] === 'string' && seed.de[key].length > 0]).toEqual([key, true]);
        // A translation must keep every placeholder of the English text.
        const placeholders = (value: string) => (value.match(/\{\w+\}/g) ?? []).sort();
        expect([key, placeholders(seed.de[key]!)]).toEqual([key, placeholders(text)]);
      }
      expect(Object.keys(seed.en).sort()).toEqual(Object.keys(messages).sort());
    },
  );
});

describe('German wording', () => {
  it('calls the cut-out of background removal a Freisteller, never an Ausschnitt (a crop)', () => {
    const seed = JSON.parse(fs.readFileSync(path.join(STRINGS_DIR, 'client-tools.json'), 'utf8')) as {
      en: Record<string, string>;
      de: Record<string, string>;
    };
    const cutOut = Object.keys(seed.en).filter((key) => /cut-out/i.test(seed.en[key]!));
    expect(cutOut.length).toBeGreaterThan(0);
    for (const key of cutOut) {
      expect([key, /Ausschnitt/.test(seed.de[key] ?? '')]).toEqual([key, false]);
      expect([key, /Freisteller/.test(seed.de[key] ?? '')]).toEqual([key, true]);
    }
  });
});

describe('translate', () => {
  it('uses the active strings, then English', () => {
    expect(translate({ 'shell.nav.home': 'Startseite' }, 'shell.nav.home')).toBe('Startseite');
    expect(translate({}, 'shell.nav.home')).toBe(en['shell.nav.home']);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{n} tokens', { n: 5 })).toBe('5 tokens');
    expect(interpolate('{n} of {m}', { n: 1 })).toBe('1 of {m}');
  });
});
