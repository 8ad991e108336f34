import { makeAutoObservable, runInAction } from 'mobx';
import type { AdminJobDetail } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { DONE, failed, type ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';
import { endpoints } from '@imagestudio/contracts';

/** One job in the console: its detail, a refund with a reason (password confirmed first), a cancel. */
export class JobDetailStore {
  job: AdminJobDetail | null = null;
  error: string | null = null;
  busy = false;

  constructor(
    private readonly root: RootStore,
    private readonly reauth: ReauthStore,
  ) {
    makeAutoObservable<JobDetailStore, 'root' | 'reauth'>(this, { root: false, reauth: false });
  }

  async load(id: string): Promise<void> {
    if (this.job?.id !== id) this.job = null;
    try {
      const reply = await this.root.api.call(endpoints.admin.job, { params: { id } });
      runInAction(() => {
        this.job = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-admin.jobs.loadFailed')));
    }
  }

  private async change(send: () => Promise<unknown>): Promise<ChangeOutcome> {
    const id = this.job?.id;
    if (!id) return failed(null, this.root.t('client-admin.changeFailed'));
    this.busy = true;
    try {
      await send();
      await this.load(id);
      return DONE;
    } catch (err) {
      return failed(err, this.root.t('client-admin.changeFailed'));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  refund(reason: string): Promise<ChangeOutcome> {
    const id = this.job?.id ?? '';
    return this.change(() =>
      this.reauth.run(() =>
        this.root.api.call(
          endpoints.admin.refundJob,
          { params: { id }, body: { reason } },
          { skipErrorHandling: true },
        ),
      ),
    );
  }

  cancel(): Promise<ChangeOutcome> {
    const id = this.job?.id ?? '';
    return this.change(() =>
      this.reauth.run(() =>
        this.root.api.call(endpoints.admin.cancelJob, { params: { id } }, { skipErrorHandling: true }),
      ),
    );
  }

  /** Whether the refund button applies: a succeeded job with a cost that has not been refunded. */
  get canRefund(): boolean {
    return !!this.job && this.job.status === 'succeeded' && !this.job.refunded && this.job.cost > 0;
  }

  get canCancel(): boolean {
    return !!this.job && (this.job.status === 'queued' || this.job.status === 'running');
  }
}
