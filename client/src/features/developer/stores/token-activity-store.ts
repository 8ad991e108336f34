import { endpoints, type LedgerEntryView } from '@imagestudio/contracts';
import { PagedListStore } from '../../../stores/paged-list-store';
import type { RootStore } from '../../../stores/root-store';

/** The account's Token activity tab: one page of the user's ledger, newest first. */
export class TokenActivityStore extends PagedListStore<LedgerEntryView> {
  constructor(root: RootStore) {
    super(
      root,
      (page) => root.api.call(endpoints.tokens.ledger, { query: { page } }),
      'client-developer.activity.loadFailed',
    );
  }

  /** The CSV export (a plain link: the session cookie authorizes the download). */
  get csvUrl(): string {
    return `${this.root.api.baseURL}/user/ledger.csv`;
  }
}
