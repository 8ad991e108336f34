import { createContext, useContext, type ReactNode } from 'react';
import type { Translate } from '../lib/i18n';

/*
 * Shared components know nothing of the stores: the app hands them the translation function of the active
 * language through this context (StoreProvider does), so a component with words of its own can look them up.
 */
const TextsContext = createContext<Translate | null>(null);

export function TextsProvider({ t, children }: { t: Translate; children: ReactNode }) {
  return <TextsContext.Provider value={t}>{children}</TextsContext.Provider>;
}

/** The translation function; throws outside a TextsProvider, as a missing provider is a wiring mistake. */
export function useTexts(): Translate {
  const t = useContext(TextsContext);
  if (!t) throw new Error('useTexts must be used inside <TextsProvider> (StoreProvider provides one)');
  return t;
}
