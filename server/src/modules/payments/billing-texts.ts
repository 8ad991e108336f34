import { type CatalogDeps, namespaceTexts, type NamespaceText } from '../catalog';

/** A `billing.*` text of one language with its `{placeholders}` filled. */
export type BillingText = NamespaceText;

/**
 * The texts of receipts and payment emails (migrations/seeds/strings/billing.json) in `lang` (a code or
 * id; the default language when unknown; keys it lacks fall back to English).
 */
export function billingTexts(deps: CatalogDeps, lang: string | undefined): Promise<BillingText> {
  return namespaceTexts(deps, lang, 'billing');
}
