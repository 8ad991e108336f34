export { RootStore, type RootStoreOptions } from './root-store';
export { StoreProvider, useStore, useT } from './store-context';
export type { AppNavigator } from './navigator';
export type { ToastKind, Toast } from './ui-store';
