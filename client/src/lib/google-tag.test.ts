import fs from 'node:fs';
import path from 'node:path';
import { settingsSchema } from '@imagestudio/contracts';
import { loadGoogleTag } from './google-tag';

describe('loadGoogleTag', () => {
  it('adds gtag.js once for a valid id and refuses anything that is not a tag id', () => {
    expect(loadGoogleTag('G-ABCD1234')).toBe(true);
    expect(loadGoogleTag('G-ABCD1234')).toBe(true);
    expect(document.querySelectorAll('script[src*="googletagmanager"]')).toHaveLength(1);
    expect(loadGoogleTag('"><script>alert(1)</script>')).toBe(false);
    expect(loadGoogleTag('G-abc')).toBe(false);
    expect(document.querySelectorAll('script[src*="googletagmanager"]')).toHaveLength(1);
  });
});

describe('internal currency image', () => {
  it('the default token image of settings is a file the client serves', () => {
    const image = settingsSchema.parse({}).internal_currency.image;
    const file = path.join(__dirname, '../../public', image);
    expect(fs.readFileSync(file, 'utf8')).toContain('<svg');
  });
});
