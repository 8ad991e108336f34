import { routes, type Route } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import { translateMessage } from './localization.service';

describe('catalog content calls', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('lists English (default) and German', async () => {
    const res = await t.agent().get('/api/languages').expect(200);
    expect(res.body.status).toBe('OK');
    const codes = res.body.payload.map((l: { code: string }) => l.code);
    expect(codes).toEqual(expect.arrayContaining(['en', 'de']));
    expect(res.body.payload.find((l: { code: string }) => l.code === 'en')).toMatchObject({
      id: expect.any(Number),
      title: 'English',
      default: 1,
    });
    expect(res.body.payload.find((l: { code: string }) => l.code === 'de')).toMatchObject({
      title: 'Deutsch',
      default: 0,
    });
  });

  it('sends a flat string map per language, English where a translation is missing', async () => {
    const languages = (await t.agent().get('/api/languages')).body.payload as Array<{ id: number; code: string }>;
    const de = languages.find((l) => l.code === 'de')!;
    const en = (await t.agent().get('/api/localizations').expect(200)).body.payload;
    const german = (await t.agent().get(`/api/localizations?lang_id=${de.id}`).expect(200)).body.payload;
    expect(en['server.catalog.invalid_currency']).toBe('Invalid currency code');
    expect(german['server.catalog.invalid_currency']).toBe('Ungültiger Währungscode');
    expect(Object.keys(german).sort()).toEqual(Object.keys(en).sort());
    expect(Object.values(en).every((v) => typeof v === 'string')).toBe(true);
    // an unknown language falls back to the default one
    expect((await t.agent().get('/api/localizations?lang_id=9999').expect(200)).body.payload).toEqual(en);
  });

  it('lists currencies with EUR as the default at value 1', async () => {
    const res = await t.agent().get('/api/currencies').expect(200);
    const byCode = Object.fromEntries(res.body.payload.map((c: { code: string }) => [c.code, c]));
    expect(Object.keys(byCode)).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'JPY', 'KWD']));
    expect(byCode.EUR).toEqual({ code: 'EUR', value: 1, symbol: '€', default: 1 });
    expect(res.body.payload.filter((c: { default: number }) => c.default === 1)).toHaveLength(1);
    for (const c of res.body.payload) expect(c.value).toBeGreaterThan(0);
  });

  it('lists every ISO 3166-1 country sorted by title, in German for lang_id=de', async () => {
    const res = await t.agent().get('/api/countries').expect(200);
    const list = res.body.payload as Array<{ id: number; title: string; iso: string }>;
    expect(list).toHaveLength(249);
    expect(list.find((c) => c.iso === 'DE')).toEqual({ id: 276, title: 'Germany', iso: 'DE' });
    const titles = list.map((c) => c.title);
    expect(titles).toEqual([...titles].sort(new Intl.Collator('en').compare));
    const german = (await t.agent().get('/api/countries?lang_id=de').expect(200)).body.payload as typeof list;
    expect(german.find((c) => c.iso === 'DE')?.title).toBe('Deutschland');
  });

  it('serves the static pages by list, id and slug, with terms, privacy and cookie pages', async () => {
    const pages = (await t.agent().get('/api/static-pages').expect(200)).body.payload as Array<Record<string, unknown>>;
    const terms = pages.find((p) => p.is_terms === 1)!;
    const privacy = pages.find((p) => p.is_privacy === 1)!;
    expect(terms).toMatchObject({ slug: 'terms', title: 'Terms of Service' });
    expect(privacy).toMatchObject({ slug: 'privacy', title: 'Privacy Policy' });
    expect(pages.find((p) => /cookie/i.test(String(p.title)))).toBeDefined();
    expect(pages.find((p) => p.slug === 'about')).toBeDefined();
    for (const p of pages) {
      expect(
        String(p.content)
          .replace(/<[^>]+>/g, ' ')
          .split(/\s+/).length,
      ).toBeGreaterThan(80);
      expect(p.content).not.toMatch(/<script|onerror=|javascript:/i);
    }
    const byId = (await t.agent().get(`/api/static-pages/${terms.id}`).expect(200)).body.payload;
    expect(byId).toEqual(terms);
    const bySlug = (await t.agent().get('/api/static-pages/slug/privacy').expect(200)).body.payload;
    expect(bySlug).toEqual(privacy);
    const missing = await t.agent().get('/api/static-pages/slug/no-such-page').expect(404);
    expect(missing.body).toMatchObject({ status: 'ERROR', code: 'not_found', message: 'Page not found.' });
    await t.agent().get('/api/static-pages/999999').expect(404);
  });

  it('serves each static page in German when German is asked for, with the same ids, slugs and flags', async () => {
    const english = (await t.agent().get('/api/static-pages').expect(200)).body.payload as Array<
      Record<string, unknown>
    >;
    const german = (await t.agent().get('/api/static-pages?lang_id=de').expect(200)).body.payload as typeof english;
    expect(german.map((p) => [p.id, p.slug, p.is_terms, p.is_privacy])).toEqual(
      english.map((p) => [p.id, p.slug, p.is_terms, p.is_privacy]),
    );
    const titles = Object.fromEntries(german.map((p) => [p.slug, p.title]));
    expect(titles).toMatchObject({
      terms: 'Allgemeine Geschäftsbedingungen',
      privacy: 'Datenschutzerklärung',
      'cookie-policy': 'Cookie-Richtlinie',
      about: 'Über uns',
    });
    for (const p of german) {
      const en = english.find((e) => e.id === p.id)!;
      expect(p.content).not.toEqual(en.content);
      expect(p.content).not.toMatch(/<script|onerror=|javascript:/i);
    }
    const terms = german.find((p) => p.slug === 'terms')!;
    expect((await t.agent().get(`/api/static-pages/${terms.id}?lang_id=de`).expect(200)).body.payload).toEqual(terms);
    const privacy = (await t.agent().get('/api/static-pages/slug/privacy?lang_id=de').expect(200)).body.payload;
    expect(privacy.content).toContain('Verantwortlich');
    // English stays English, also after the German reply is cached.
    const again = (await t.agent().get('/api/static-pages/slug/privacy').expect(200)).body.payload;
    expect(again.title).toBe('Privacy Policy');
  });

  it('lists social links', async () => {
    const links = (await t.agent().get('/api/social-links').expect(200)).body.payload;
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const l of links) expect(Object.keys(l).sort()).toEqual(['icon', 'id', 'title', 'url']);
    for (const l of links) expect(l.url).toMatch(/^https:\/\//);
  });

  it('sends every catalogue reply exactly as its schema in the route table (the OpenAPI document) describes it', async () => {
    const c = routes.catalog;
    const calls: Array<[Route, string]> = [
      [c.settings, '/api/settings'],
      [c.languages, '/api/languages'],
      [c.currencies, '/api/currencies'],
      [c.localizations, '/api/localizations?lang_id=de'],
      [c.countries, '/api/countries?lang_id=de'],
      [c.staticPages, '/api/static-pages'],
      [c.staticPages, '/api/static-pages?lang_id=de'],
      [c.staticPageBySlug, '/api/static-pages/slug/terms'],
      [c.socialLinks, '/api/social-links'],
      [c.packs, '/api/packs?currency=JPY'],
      [c.tokenPricing, '/api/token-pricing?currency=KWD'],
      [c.tokenQuote, '/api/token-pricing/quote?tokens=12.5&currency=USD'],
      [routes.tools.status, '/api/tools/status'],
    ];
    for (const [route, path] of calls) {
      const body = (await t.agent().get(path).expect(200)).body as { payload: unknown };
      expectReplyMatchesSchema(route, body);
    }
    const terms = (await t.agent().get('/api/static-pages/slug/terms').expect(200)).body.payload as { id: number };
    expectReplyMatchesSchema(c.staticPage, (await t.agent().get(`/api/static-pages/${terms.id}`).expect(200)).body);
  });

  it.each([
    '/api/settings',
    '/api/languages',
    '/api/localizations',
    '/api/currencies',
    '/api/countries',
    '/api/static-pages',
    '/api/social-links',
    '/api/packs',
    '/api/token-pricing',
  ])('sends ETag and Cache-Control on %s and answers a matching If-None-Match with 304', async (path) => {
    const first = await t.agent().get(path).expect(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await t.agent().get(path).set('If-None-Match', String(first.headers.etag)).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    await t.agent().get(path).set('If-None-Match', '"stale"').expect(200);
  });

  it('translates server messages into the requested language, English otherwise', async () => {
    const german = await t.agent().get('/api/token-pricing/quote?tokens=5&currency=XYZ&lang_id=de').expect(422);
    expect(german.body).toMatchObject({
      message: 'Ungültiger Währungscode',
      errors: { currency: ['Ungültiger Währungscode'] },
    });
    const english = await t.agent().get('/api/token-pricing/quote?tokens=5&currency=XYZ').expect(422);
    expect(english.body.message).toBe('Invalid currency code');
    const missing = await t.agent().get('/api/static-pages/slug/nope?lang_id=de').expect(404);
    expect(missing.body.message).toBe('Seite nicht gefunden.');
  });

  it('fills placeholders of translated messages and leaves unknown messages alone', async () => {
    expect(await translateMessage(t.ctx, 'Not enough tokens: this needs 2.5, you have 0.5.', 'de')).toBe(
      'Nicht genügend Tokens: benötigt werden 2.5, Sie haben 0.5.',
    );
    expect(await translateMessage(t.ctx, 'Minimum top-up amount: €1.00', 'de')).toBe(
      'Mindestbetrag für die Aufladung: €1.00',
    );
    expect(await translateMessage(t.ctx, 'Something nobody translated.', 'de')).toBe('Something nobody translated.');
    expect(await translateMessage(t.ctx, 'Invalid currency code', 'en')).toBe('Invalid currency code');
  });
});
