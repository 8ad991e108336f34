export { RootStore, type RootStoreOptions } from './root-store';
export { StoreProvider, useStore, useT } from './store-context';
export type { AppNavigator } from './navigator';
export type { ToastKind, Toast } from './ui-store';
export {
  BUY_TOKENS_MODAL,
  CHECKOUT_MODAL,
  DEFAULT_PAYMENT_TYPE,
  isTerminalDeposit,
  UNKNOWN_ORDER,
  type DepositStatus,
} from '../features/pricing/stores/top-up-store';
export type { BillingField } from '../features/pricing/stores/top-up-validation';
export type { PaymentHistoryItem } from '@imagestudio/contracts';
