import { reaction } from 'mobx';
import {
  endpoints,
  type AdminAuditRow,
  type AdminDepositRow,
  type AdminJobSummary,
  type AdminUserSummary,
} from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { AdminListStore } from './admin-list-store';
import { CatalogStore } from './catalog-store';
import { JobDetailStore } from './job-detail-store';
import { OverviewStore } from './overview-store';
import { ReauthStore } from './reauth';
import { UserDetailStore } from './user-detail-store';

export type JobFilters = { user: string; tool: string; status: string; from: string; to: string };
export type DepositFilters = { user: string; status: string; from: string; to: string };
export type UserFilters = { q: string };
export type AuditFilters = { actor: string; action: string };

/**
 * Every store of the operator console (/admin), made together when its pages first load (their code comes with
 * the admin chunk only). Whether the signed-in user may see the console is the profile's `role`; the server
 * refuses everyone else anyway. Everything is dropped on sign-out.
 */
export class AdminStore {
  readonly reauth: ReauthStore;
  readonly overview: OverviewStore;
  readonly jobs: AdminListStore<AdminJobSummary, JobFilters>;
  readonly job: JobDetailStore;
  readonly users: AdminListStore<AdminUserSummary, UserFilters>;
  readonly user: UserDetailStore;
  readonly deposits: AdminListStore<AdminDepositRow, DepositFilters>;
  readonly audit: AdminListStore<AdminAuditRow, AuditFilters>;
  readonly catalog: CatalogStore;

  constructor(private readonly root: RootStore) {
    this.reauth = new ReauthStore(root);
    this.overview = new OverviewStore(root);
    this.jobs = new AdminListStore(
      root,
      endpoints.admin.jobs,
      { user: '', tool: '', status: '', from: '', to: '' },
      'client-admin.jobs.loadFailed',
    );
    this.job = new JobDetailStore(root, this.reauth);
    this.users = new AdminListStore(root, endpoints.admin.users, { q: '' }, 'client-admin.users.loadFailed');
    this.user = new UserDetailStore(root, this.reauth);
    this.deposits = new AdminListStore(
      root,
      endpoints.admin.deposits,
      { user: '', status: '', from: '', to: '' },
      'client-admin.payments.loadFailed',
    );
    this.audit = new AdminListStore(
      root,
      endpoints.admin.audit,
      { actor: '', action: '' },
      'client-admin.audit.loadFailed',
    );
    this.catalog = new CatalogStore(root, this.reauth);
    reaction(
      () => root.auth.isAuthenticated,
      (signedIn) => {
        if (!signedIn) forget(root);
      },
    );
  }

  /** Whether the signed-in user is an operator (their profile says role admin). */
  get isOperator(): boolean {
    return this.root.profile.profile?.role === 'admin';
  }

  /** Address of a paid deposit's receipt, opened in a new tab (the session cookie authorizes it). */
  receiptUrl(depositId: string): string {
    return `${this.root.api.baseURL}/admin/deposits/${encodeURIComponent(depositId)}/receipt`;
  }
}

const made = new WeakMap<RootStore, AdminStore>();

/** The console's stores for this app, made on first use. */
export function adminStoreFor(root: RootStore): AdminStore {
  let store = made.get(root);
  if (!store) {
    store = new AdminStore(root);
    made.set(root, store);
  }
  return store;
}

function forget(root: RootStore): void {
  made.delete(root);
}
