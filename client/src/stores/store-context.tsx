import { createContext, useContext, type ReactNode } from 'react';
import { TextsProvider } from '../components/texts-context';
import type { RootStore } from './root-store';

const StoreContext = createContext<RootStore | null>(null);

/** Makes the RootStore available to every component below, and its translation function to shared components. */
export function StoreProvider({ store, children }: { store: RootStore; children: ReactNode }) {
  return (
    <StoreContext.Provider value={store}>
      <TextsProvider t={store.t}>{children}</TextsProvider>
    </StoreContext.Provider>
  );
}

/** The RootStore; components read domain stores from it and wrap themselves in observer(). */
export function useStore(): RootStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore must be used inside <StoreProvider>');
  return store;
}

/** The translation function of the active language (re-renders observers when it changes). */
export function useT(): RootStore['t'] {
  return useStore().t;
}
