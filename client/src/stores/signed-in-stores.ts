import { BATCH_TOOLS, JOB_NAMES } from '@imagestudio/contracts';
import { byTool } from '../config/tools';
import { AccountStore } from '../features/account/stores/account-store';
import { ApiKeysStore } from '../features/developer/stores/api-keys-store';
import { BatchRunStore } from '../features/tools/stores/batch-run-store';
import { CheckoutStore } from '../features/pricing/stores/checkout-store';
import { JobListsStore } from '../features/job-lists/stores/job-lists-store';
import { provideStores } from './lazy-stores';
import { PaymentHistoryStore } from '../features/account/stores/payment-history-store';
import { TokenActivityStore } from '../features/developer/stores/token-activity-store';
import { TokenPricingStore } from '../features/pricing/stores/token-pricing-store';
import { ToolRunStore } from '../features/tools/stores/tool-run-store';
import { TopUpStore } from '../features/pricing/stores/top-up-store';

/*
 * Imported for its effect by the feature modules whose pages use these stores (pricing, payments, account,
 * developer, job lists, tools), so their code arrives with those chunks rather than with the home page.
 * package.json lists this file under sideEffects, or the bundler would drop the bare imports.
 */
provideStores({
  tokenPricing: (root) => new TokenPricingStore(root),
  topUp: (root) => new TopUpStore(root),
  checkout: (root) => new CheckoutStore(root),
  paymentHistory: (root) => new PaymentHistoryStore(root),
  tokenActivity: (root) => new TokenActivityStore(root),
  apiKeys: (root) => new ApiKeysStore(root),
  account: (root) => new AccountStore(root),
  jobLists: (root) => new JobListsStore(root),
  toolRuns: (root) => byTool(JOB_NAMES, (tool) => new ToolRunStore(root, tool)),
  batchRuns: (root) => byTool(BATCH_TOOLS, (tool) => new BatchRunStore(root, tool)),
});
