import type { CatalogDeps } from '../catalog/catalog.cache';
import { localizedStrings } from '../catalog/localization.service';

/** A `billing.*` text of one language with its `{placeholders}` filled. */
export type BillingText = (key: string, values?: Record<string, string | number>) => string;

/**
 * The texts of receipts and payment emails (migrations/seeds/strings/billing.json) in `lang` (a code or
 * id; the default language when unknown; keys it lacks fall back to English).
 */
export async function billingTexts(deps: CatalogDeps, lang: string | undefined): Promise<BillingText> {
  const strings = await localizedStrings(deps, lang);
  return (key, values = {}) => {
    const text = strings[`billing.${key}`] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
}
