/** What other modules may use of catalog; everything else in this folder is internal. */
export * as catalogAdminService from './catalog-admin.service';
export { type CatalogCache, type CatalogDeps, createCatalogCache } from './catalog.cache';
export * as catalogRepository from './catalog.repository';
export { catalogRouter } from './catalog.routes';
export { findCountry, listCountries } from './content.service';
export { resolveCurrency } from './currency.service';
export { isoCountries } from './iso-countries';
export { type NamespaceText, namespaceTexts, requestLanguage, translatorFor } from './localization.service';
export { localizeMessagesRouter } from './localize-messages';
export * as pricingRepository from './pricing.repository';
export { pricingRouter } from './pricing.routes';
export { quotePackIn, quoteTokensIn, tenthsForAmountIn } from './pricing.service';
export { readSettingRows } from './settings.repository';
export { getSettings, updateSetting } from './settings.service';
