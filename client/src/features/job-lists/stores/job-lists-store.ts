import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints, type BatchSummary, type JobName, type JobStatus, type JobView } from '@imagestudio/contracts';
import { messageOf } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';

export interface JobListFilters {
  tool: JobName | '';
  status: JobStatus | '';
}

/** One paginated list of the user's jobs: Request History (every job) or My Projects (succeeded ones). */
export class JobListStore {
  items: JobView[] = [];
  page = 1;
  lastPage = 1;
  total = 0;
  loading = false;
  loaded = false;
  error: string | null = null;
  filters: JobListFilters = { tool: '', status: '' };
  /** Jobs being deleted, so their buttons show busy. */
  deleting = new Set<string>();
  /** The batches the listed jobs belong to (history groups a batch's jobs under one row). */
  batches = new Map<string, BatchSummary>();

  constructor(
    private readonly root: RootStore,
    /** History lists every job (GET /jobs), projects the succeeded ones whose files remain. */
    private readonly endpoint: typeof endpoints.jobs.list | typeof endpoints.jobs.projects,
  ) {
    makeAutoObservable<JobListStore, 'root' | 'endpoint'>(this, { root: false, endpoint: false });
  }

  async load(page = this.page): Promise<void> {
    this.loading = true;
    const query = {
      page,
      ...(this.filters.tool ? { tool: this.filters.tool } : {}),
      ...(this.filters.status ? { status: this.filters.status } : {}),
    };
    try {
      const reply = await this.root.api.call(this.endpoint as typeof endpoints.jobs.list, { query });
      const data = reply.payload;
      runInAction(() => {
        this.items = data.items;
        this.page = data.page;
        this.lastPage = Math.max(1, data.last_page);
        this.total = data.total;
        this.error = null;
        this.loaded = true;
      });
      if (data.items.some((job) => job.batch_id)) await this.loadBatches();
    } catch (err) {
      runInAction(() => (this.error = messageOf(err, this.root.t('client-tools.lists.loadFailed'))));
    } finally {
      runInAction(() => (this.loading = false));
    }
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
    this.filters = { ...this.filters, [name]: value };
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
