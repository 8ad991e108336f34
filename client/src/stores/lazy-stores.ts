import type { BatchTool, JobName } from '@imagestudio/contracts';
import type { AccountStore } from '../features/account/stores/account-store';
import type { ApiKeysStore } from '../features/developer/stores/api-keys-store';
import type { BatchRunStore } from '../features/tools/stores/batch-run-store';
import type { CheckoutStore } from '../features/pricing/stores/checkout-store';
import type { JobListsStore } from '../features/job-lists/stores/job-lists-store';
import type { PaymentHistoryStore } from '../features/account/stores/payment-history-store';
import type { RootStore } from './root-store';
import type { TokenActivityStore } from '../features/developer/stores/token-activity-store';
import type { TokenPricingStore } from '../features/pricing/stores/token-pricing-store';
import type { ToolRunStore } from '../features/tools/stores/tool-run-store';
import type { TopUpStore } from '../features/pricing/stores/top-up-store';

/**
 * The stores only signed-in or paying visitors use. Their code is not in the first bundle: the page chunks
 * that use them import `signed-in-stores.ts`, which hands their constructors to `provideStores`, and the
 * RootStore builds each one the first time it is read (so a guest on the home page never downloads them).
 */
export interface LazyStores {
  tokenPricing: TokenPricingStore;
  topUp: TopUpStore;
  checkout: CheckoutStore;
  paymentHistory: PaymentHistoryStore;
  tokenActivity: TokenActivityStore;
  apiKeys: ApiKeysStore;
  account: AccountStore;
  jobLists: JobListsStore;
}

export type LazyStoreFactories = { [K in keyof LazyStores]: (root: RootStore) => LazyStores[K] } & {
  /** Each tool's run (ToolsStore.runs). */
  toolRuns: (root: RootStore) => Record<JobName, ToolRunStore>;
  /**
   * Each upload tool's batch (ToolsStore.batches). The list of those tools comes from here, with the batch code:
   * the module that exports it holds the batch schemas, which the first bundle does without.
   */
  batchRuns: (root: RootStore) => Record<BatchTool, BatchRunStore>;
};

let factories: LazyStoreFactories | null = null;

/** Called once by signed-in-stores.ts when a page chunk that needs these stores has loaded. */
export function provideStores(provided: LazyStoreFactories): void {
  factories = provided;
}

/** The constructors; throws when read before any page chunk that uses them has loaded (a missing import). */
export function storeFactories(): LazyStoreFactories {
  if (!factories)
    throw new Error(
      'A signed-in store was read before signed-in-stores.ts loaded: import it from the page chunk that uses it.',
    );
  return factories;
}
