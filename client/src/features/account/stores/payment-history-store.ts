import { endpoints, type PaymentHistoryItem } from '@imagestudio/contracts';
import { PagedListStore } from '../../../stores/paged-list-store';
import type { RootStore } from '../../../stores/root-store';

/** The account's Payment History tab: one page of the user's deposits, newest first. */
export class PaymentHistoryStore extends PagedListStore<PaymentHistoryItem> {
  constructor(root: RootStore) {
    super(
      root,
      (page) => root.api.call(endpoints.payments.history, { query: { page } }),
      'client-payments.account.history.loadFailed',
    );
  }
}
