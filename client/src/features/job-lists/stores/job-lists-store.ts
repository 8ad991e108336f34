import { action, makeObservable, observable, override, runInAction } from 'mobx';
import { endpoints, type BatchSummary, type JobName, type JobStatus, type JobView } from '@imagestudio/contracts';
import { messageOf } from '../../../lib/api/api-error';
import { PagedListStore } from '../../../stores/paged-list-store';
import type { RootStore } from '../../../stores/root-store';

export interface JobListFilters {
  tool: JobName | '';
  status: JobStatus | '';
}

/** One paginated list of the user's jobs: Request History (every job) or My Projects (succeeded ones). */
export class JobListStore extends PagedListStore<JobView> {
  /** The filters the list shows; the page fetch reads them at the moment it asks. */
  private readonly form: { filters: JobListFilters };
  /** Jobs being deleted, so their buttons show busy. */
  deleting = new Set<string>();
  /** The batches the listed jobs belong to (history groups a batch's jobs under one row). */
  batches = new Map<string, BatchSummary>();

  constructor(
    root: RootStore,
    /** History lists every job (GET /jobs), projects the succeeded ones whose files remain. */
    endpoint: typeof endpoints.jobs.list | typeof endpoints.jobs.projects,
  ) {
    const form = observable({ filters: { tool: '', status: '' } as JobListFilters });
    super(
      root,
      (page) => root.api.call(endpoint as typeof endpoints.jobs.list, { query: jobQuery(form.filters, page) }),
      'client-tools.lists.loadFailed',
    );
    this.form = form;
    makeObservable<JobListStore, 'loadBatches'>(this, {
      deleting: observable,
      batches: observable,
      load: override,
      loadBatches: action,
      markStale: action,
      setFilter: action,
      remove: action,
    });
  }

  get filters(): JobListFilters {
    return this.form.filters;
  }

  /** Loads `page`, by default the one shown (a reload after a change). */
  override load(page = this.page): Promise<void> {
    return super.load(page);
  }

  protected override async afterPage(items: JobView[]): Promise<void> {
    if (items.some((job) => job.batch_id)) await this.loadBatches();
  }

  /** The server's own words where it gave some, else the list's failure text. */
  protected override failureText(err: unknown): string {
    return messageOf(err, this.root.t(this.failedMessage));
  }

  /** The user's newest batches, for the group rows (a batch not among them is summed from its listed jobs). */
  private async loadBatches(): Promise<void> {
    try {
      const reply = await this.root.api.call(
        endpoints.batches.list,
        { query: { page: 1 } },
        { skipErrorHandling: true },
      );
      const page = reply.payload;
      runInAction(() => (this.batches = new Map(page.items.map((b) => [b.id, b]))));
    } catch {
      // The groups are still shown, from the jobs on this page.
    }
  }

  /** Marks the list out of date (a job finished); the next visit reloads it. */
  markStale(): void {
    this.loaded = false;
  }

  /** Changes a filter and goes back to the first page. */
  setFilter(name: keyof JobListFilters, value: string): void {
    this.form.filters = { ...this.form.filters, [name]: value };
    void this.load(1);
  }

  /** Deletes a job's files (the history row stays, marked deleted), then reloads the page. */
  async remove(id: string): Promise<boolean> {
    this.deleting.add(id);
    try {
      await this.root.api.call(endpoints.jobs.delete, { params: { id } });
      this.root.ui.success(this.root.t('client-tools.projects.deleted'));
      await this.load();
      return true;
    } catch {
      return false;
    } finally {
      runInAction(() => this.deleting.delete(id));
    }
  }
}

/** The list's query for `page`: the filters that are set, left out when blank. */
function jobQuery(filters: JobListFilters, page: number) {
  return {
    page,
    ...(filters.tool ? { tool: filters.tool } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

/** The two account lists; a finished job marks them stale so the next visit reloads. */
export class JobListsStore {
  readonly history: JobListStore;
  readonly projects: JobListStore;

  constructor(root: RootStore) {
    this.history = new JobListStore(root, endpoints.jobs.list);
    this.projects = new JobListStore(root, endpoints.jobs.projects);
  }

  invalidate(): void {
    this.history.markStale();
    this.projects.markStale();
  }
}
