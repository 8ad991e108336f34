import { makeAutoObservable, runInAction } from 'mobx';
import type { AdminOverview } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { endpoints } from '@imagestudio/contracts';

/** How often the overview reloads while it is shown. */
export const OVERVIEW_REFRESH_MS = 10_000;

/** The console's overview: queues per tool, workers, jobs per hour and deposits per day, reloaded every 10 s. */
export class OverviewStore {
  data: AdminOverview | null = null;
  error: string | null = null;
  loading = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<OverviewStore, 'root' | 'timer'>(this, { root: false, timer: false });
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const reply = await this.root.api.call(endpoints.admin.overview, undefined, { skipErrorHandling: true });
      runInAction(() => {
        this.data = reply.payload;
        this.error = null;
      });
    } catch {
      // The last figures stay on screen, marked as out of date.
      runInAction(() => (this.error = this.root.t('client-admin.overview.loadFailed')));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** Loads now and every OVERVIEW_REFRESH_MS until the returned function is called (the page unmounting). */
  watch(everyMs = OVERVIEW_REFRESH_MS): () => void {
    this.stop();
    void this.load();
    this.timer = setInterval(() => void this.load(), everyMs);
    return () => this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Workers with the lost ones last. */
  get workers() {
    return [...(this.data?.workers ?? [])].sort((a, b) => Number(a.state === 'lost') - Number(b.state === 'lost'));
  }
}
