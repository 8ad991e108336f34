import { action, makeObservable, observable, runInAction } from 'mobx';
import type { MessageKey } from '../../../lib/i18n';
import type { RootStore } from '../../../stores/root-store';
import { DONE, failed, type ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';

/**
 * One record of the console (a job, a user) shown on its own page: loading it by id, and the changes made to it,
 * each of which reloads the record when it is done. The job and user stores add their own changes on top.
 */
export class AdminDetailStore<Detail extends { id: string }> {
  /** The record shown; cleared when another id is asked for, so a page never shows the previous one. */
  detail: Detail | null = null;
  error: string | null = null;
  busy = false;

  constructor(
    protected readonly root: RootStore,
    private readonly reauth: ReauthStore,
    /** Asks the record's route for it (a typed `api.call`). */
    private readonly fetchDetail: (id: string) => Promise<{ payload: Detail }>,
    private readonly failedMessage: MessageKey,
  ) {
    makeObservable<AdminDetailStore<Detail>, 'change'>(this, {
      detail: observable,
      error: observable,
      busy: observable,
      load: action,
      change: action,
    });
  }

  async load(id: string): Promise<void> {
    if (this.detail?.id !== id) this.detail = null;
    try {
      const reply = await this.fetchDetail(id);
      runInAction(() => {
        this.detail = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t(this.failedMessage)));
    }
  }

  /** The id of the record shown ('' before it has loaded). */
  protected detailId(): string {
    return this.detail?.id ?? '';
  }

  /** Sends a change (after the password confirmation unless `needsReauth` is false), then reloads the record. */
  protected async change(send: () => Promise<unknown>, needsReauth = true): Promise<ChangeOutcome> {
    const id = this.detail?.id;
    if (!id) return failed(null, this.root.t('client-admin.changeFailed'));
    this.busy = true;
    try {
      await (needsReauth ? this.reauth.run(send) : send());
      await this.load(id);
      return DONE;
    } catch (err) {
      return failed(err, this.root.t('client-admin.changeFailed'));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }
}
