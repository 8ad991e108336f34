import { endpoints, type CurrencyView, type LanguageView } from '@imagestudio/contracts';
import { chooseCurrency } from './currency-store';
import { chooseLanguage } from './language-store';
import { normalizePacks } from '../features/pricing/stores/packs-store';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../test/fake-api';

const { catalog } = endpoints;

beforeEach(() => localStorage.clear());

const langs: LanguageView[] = [
  { id: 1, code: 'en', title: 'English', default: 0 },
  { id: 2, code: 'de', title: 'Deutsch', default: 1 },
];

describe('language choice (stored, else default, else first)', () => {
  it('stored languageId if valid, else the default, else the first', () => {
    expect(chooseLanguage(langs, '1')?.code).toBe('en');
    expect(chooseLanguage(langs, '99')?.code).toBe('de');
    expect(chooseLanguage(langs, null)?.code).toBe('de');
    expect(
      chooseLanguage(
        langs.map((l) => ({ ...l, default: 0 as const })),
        null,
      )?.code,
    ).toBe('en');
    expect(chooseLanguage([], null)).toBeNull();
  });

  it('on a first visit (nothing stored) follows the browser languages in their order, else the default', () => {
    expect(chooseLanguage(langs, null, ['en-GB', 'de'])?.code).toBe('en');
    expect(chooseLanguage(langs, null, ['fr-FR', 'de-AT'])?.code).toBe('de');
    expect(chooseLanguage(langs, null, ['fr-FR'])?.code).toBe('de');
    expect(chooseLanguage(langs, '1', ['de-DE'])?.code).toBe('en');
  });

  it('a browser set to German gets German on the first visit', async () => {
    const english = langs.map((l) => ({ ...l, default: (l.code === 'en' ? 1 : 0) as 0 | 1 }));
    const spy = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'de', 'en-US']);
    try {
      const { store } = makeStore(withCatalog(new FakeApi()).route(catalog.languages, okPayload(english)));
      await store.languages.load();
      expect(store.languages.active?.code).toBe('de');
      expect(store.t('shell.nav.home')).toBe('Startseite');
    } finally {
      spy.mockRestore();
    }
  });

  it("names countries in the reader's language (Intl.DisplayNames), following a change of language", async () => {
    const { store } = makeStore(withCatalog(new FakeApi()));
    await store.languages.load();
    await store.countries.load();
    expect(store.countries.countries.map((c) => c.title)).toEqual(['Germany', 'United States']);
    await store.languages.select(2);
    expect(store.countries.countries.map((c) => c.title)).toEqual(['Deutschland', 'Vereinigte Staaten']);
  });

  it('merges the server strings over English, remembers the choice, and keeps English on failure', async () => {
    const api = withCatalog(new FakeApi());
    const { store } = makeStore(api);
    await store.languages.load();
    expect(store.t('shell.nav.home')).toBe('Home');
    await store.languages.select(2);
    expect(localStorage.getItem('languageId')).toBe('2');
    expect(store.t('shell.nav.home')).toBe('Startseite');
    expect(store.t('shell.nav.pricing')).toBe('Pricing');
    expect(api.last(catalog.localizations)?.params).toEqual({ lang_id: 2 });
  });

  it('a failed list says "Failed to load languages" and the English texts remain', async () => {
    const { store } = makeStore(new FakeApi().route(catalog.languages, errorReply('internal_error')));
    await store.languages.load();
    expect(store.languages.error).toBe('Failed to load languages');
    expect(store.t('shell.nav.home')).toBe('Home');
  });
});

const currencies: CurrencyView[] = [
  { code: 'USD', value: 1.1, symbol: '$', default: 0 },
  { code: 'GBP', value: 0.9, symbol: '£', default: 1 },
];

describe('currency choice (stored, else default, else first, else EUR)', () => {
  it('code from storage, else default-flagged, else first, else EUR', () => {
    expect(chooseCurrency(currencies, 'USD').code).toBe('USD');
    expect(chooseCurrency(currencies, 'XXX').code).toBe('GBP');
    expect(
      chooseCurrency(
        currencies.map((c) => ({ ...c, default: 0 as const })),
        null,
      ).code,
    ).toBe('USD');
    expect(chooseCurrency([], null)).toEqual({ code: 'EUR', value: 1, symbol: '€', default: 0 });
  });

  it('stores code and symbol; an unknown code gives "Invalid currency code" and the fallback choice', async () => {
    const api = new FakeApi().route(catalog.currencies, okPayload(currencies));
    const { store } = makeStore(api);
    await store.currencies.load();
    expect(store.currencies.code).toBe('GBP');
    expect(store.currencies.select('USD')).toBe(true);
    expect(localStorage.getItem('currencyCode')).toBe('USD');
    expect(localStorage.getItem('currencySymbol')).toBe('$');
    expect(store.currencies.select('JPY')).toBe(false);
    expect(store.currencies.error).toBe('Invalid currency code');
    expect(store.currencies.code).toBe('GBP');
  });

  it('"Failed to load currencies" leaves only EUR', async () => {
    const { store } = makeStore(new FakeApi().route(catalog.currencies, 'network'));
    await store.currencies.load();
    expect(store.currencies.error).toBe('Failed to load currencies');
    expect(store.currencies.currencies.map((c) => c.code)).toEqual(['EUR']);
    expect(store.currencies.format(12.5)).toBe('€12.50');
  });

  it('every call carries the chosen currency and language', async () => {
    const api = withCatalog(new FakeApi());
    const { store } = makeStore(api);
    await store.init();
    store.currencies.select('USD');
    await store.settings.load();
    expect(api.last(catalog.settings)?.params).toEqual({ currency: 'USD', lang_id: 1 });
  });
});

describe('packs, pages, settings, countries', () => {
  it('accepts a list or an object keyed by id, rejects anything else', () => {
    expect(normalizePacks([{ id: 1, title: 'A', price: '0', credits: 10 }])).toEqual([
      { id: 1, title: 'A', price: 0, credits: 10 },
    ]);
    expect(normalizePacks({ 7: { id: 7, title: 'B', price: 5, credits: 50 } })?.map((p) => p.id)).toEqual([7]);
    expect(normalizePacks('nope')).toBeNull();
  });

  it('reports each store failure with its own message', async () => {
    const api = new FakeApi()
      // Broken on purpose: a pack list that is neither a list nor an object keyed by id.
      .routeRaw(catalog.packs, { status: 200, data: { status: 'OK', payload: 'nope' } })
      .route(catalog.settings, 'network')
      .route(catalog.staticPages, errorReply('internal_error'))
      .route(catalog.countries, errorReply('internal_error'));
    const { store } = makeStore(api);
    await Promise.all([store.packs.load(), store.settings.load(), store.pages.load(), store.countries.load()]);
    expect(store.packs.error).toBe('Invalid packs response');
    expect(store.settings.error).toBe('Failed to fetch settings');
    expect(store.pages.error).toBe('Failed to fetch pages');
    expect(store.countries.error).toBe('Failed to load countries');
    api.route(catalog.packs, errorReply('internal_error'));
    await store.packs.load();
    expect(store.packs.error).toBe('Failed to fetch packs');
  });

  it('finds the terms, privacy and cookie pages and a page path by slug or id', async () => {
    const api = new FakeApi().route(
      catalog.staticPages,
      okPayload([
        { id: 1, slug: 'terms', title: 'Terms', content: '', is_terms: 1, is_privacy: 0 },
        { id: 2, slug: null, title: 'Privacy', content: '', is_terms: 0, is_privacy: 1 },
        { id: 3, slug: 'cookies', title: 'Our Cookie Policy', content: '', is_terms: 0, is_privacy: 0 },
      ]),
    );
    const { store } = makeStore(api);
    await store.pages.load();
    expect(store.pages.termsPage?.id).toBe(1);
    expect(store.pages.privacyPage?.id).toBe(2);
    expect(store.pages.cookiePage?.id).toBe(3);
    expect(store.pages.pathOf(store.pages.privacyPage!)).toBe('/static-page/2');
    expect(store.pages.pathOf(store.pages.termsPage!)).toBe('/terms');
  });

  it('start-up failure of something unexpected becomes the init error', async () => {
    const { store } = makeStore(withCatalog(new FakeApi()));
    jest.spyOn(store.settings, 'load').mockRejectedValue(new Error('settings exploded'));
    await store.init();
    expect(store.initState).toBe('failed');
    expect(store.initError).toBe('settings exploded');
  });
});
