import { computed, makeObservable } from 'mobx';
import { endpoints, type AdminJobDetail } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { AdminDetailStore } from './admin-detail-store';
import type { ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';

/** One job in the console: its detail, a refund with a reason (password confirmed first), a cancel. */
export class JobDetailStore extends AdminDetailStore<AdminJobDetail> {
  constructor(root: RootStore, reauth: ReauthStore) {
    super(root, reauth, (id) => root.api.call(endpoints.admin.job, { params: { id } }), 'client-admin.jobs.loadFailed');
    makeObservable(this, { job: computed, canRefund: computed, canCancel: computed });
  }

  get job(): AdminJobDetail | null {
    return this.detail;
  }

  refund(reason: string): Promise<ChangeOutcome> {
    const id = this.detailId();
    return this.change(() =>
      this.root.api.call(endpoints.admin.refundJob, { params: { id }, body: { reason } }, { skipErrorHandling: true }),
    );
  }

  cancel(): Promise<ChangeOutcome> {
    const id = this.detailId();
    return this.change(() =>
      this.root.api.call(endpoints.admin.cancelJob, { params: { id } }, { skipErrorHandling: true }),
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
