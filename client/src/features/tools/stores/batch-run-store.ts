import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import {
  BATCH_FIELDS,
  BATCH_SSE_EVENTS,
  isFinalBatchStatus,
  isFinalJobStatus,
  type BatchAccepted,
  type BatchTool,
  type BatchView,
} from '@imagestudio/contracts';
import type { ApiRequestError } from '../../../lib/api/api-error';
import type { EventSourceLike } from '../../../stores/job-tracker';
import type { RootStore } from '../../../stores/root-store';
import { idempotencyKey, submitRun, type RunProblem } from './run-submit';

/** Milliseconds between GET /api/batches/{id} polls when the event stream is unavailable. */
export const BATCH_POLL_MS = 2000;

/** What a batch sends: several images, or one ZIP of them. */
export type BatchInput = { images: File[] } | { archive: File };

/** Error keys of a 422 that name the request or an option rather than one of the files. */
const REQUEST_KEYS = new Set<string>([
  'tool',
  BATCH_FIELDS.images,
  BATCH_FIELDS.archive,
  'form',
  'factor',
  'model',
  'output_format',
  'background_color',
  'mask_only',
  'Idempotency-Key',
]);

function parseBatch(data: string): BatchView | null {
  try {
    const view = JSON.parse(data) as BatchView;
    return view && typeof view.id === 'string' && Array.isArray(view.items) ? view : null;
  } catch {
    return null;
  }
}

/**
 * One tool's batch: the upload, then the batch followed live (its Server-Sent Events stream, or polling
 * when the stream breaks) until every item has ended; cancel all, and retry of one failed item (a new
 * job, charged on its own). Lives in the RootStore like the single runs, so leaving the page does not
 * lose the batch.
 */
export class BatchRunStore {
  phase: 'idle' | 'submitting' | 'tracking' = 'idle';
  uploadFraction = 0;
  view: BatchView | null = null;
  problem: RunProblem | null = null;
  /** Per bad file: its name and the server's reasons (a 422 names every file it refused). */
  badFiles: { name: string; reasons: string[] }[] = [];
  cancelling = false;
  /** Items whose retry is being sent. */
  retrying = new Set<string>();
  private stream: EventSourceLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly root: RootStore,
    readonly tool: BatchTool,
  ) {
    makeAutoObservable<BatchRunStore, 'root' | 'stream' | 'timer'>(this, {
      root: false,
      tool: false,
      stream: false,
      timer: false,
    });
  }

  /** True while uploading or while any item has not ended. */
  get busy(): boolean {
    return this.phase === 'submitting' || (this.view !== null && !isFinalBatchStatus(this.view.status));
  }

  /** A batch is never "run again" as a whole: the run button always starts a new one. */
  get hasResult(): boolean {
    return false;
  }

  repeatsResult(): boolean {
    return false;
  }

  get finished(): boolean {
    return this.view !== null && isFinalBatchStatus(this.view.status);
  }

  /** Items that have ended, for the "n of m done" line. */
  get doneCount(): number {
    return this.view ? this.view.items.filter((i) => isFinalJobStatus(i.status)).length : 0;
  }

  /** Where the ZIP of the finished results downloads from. */
  get zipUrl(): string | null {
    if (!this.view) return null;
    return `${this.root.api.baseURL}/batches/${encodeURIComponent(this.view.id)}/zip`;
  }

  /**
   * Sends the images (or the ZIP) with the tool's option fields (a Blob is a file part: a background image);
   * `expectedCost` words a 402.
   */
  async submit(
    input: BatchInput,
    fields: Record<string, string | Blob>,
    expectedCost: number,
  ): Promise<BatchAccepted | null> {
    this.stopFollowing();
    this.badFiles = [];
    this.view = null;
    const body = new FormData();
    body.append(BATCH_FIELDS.tool, this.tool);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    if ('archive' in input) body.append(BATCH_FIELDS.archive, input.archive);
    else for (const file of input.images) body.append(BATCH_FIELDS.images, file);
    return submitRun(this.root, this, {
      endpoint: endpoints.batches.create,
      body,
      expectedCost,
      accepted: (batch) => this.open(batch.id),
      invalidMessage: (err) => this.invalidMessage(err),
    });
  }

  /** Shows a batch (after its upload, or from history with ?batch=) and follows it until it ends. */
  async open(batchId: string): Promise<void> {
    if (this.view?.id === batchId && this.phase === 'tracking') return;
    try {
      const reply = await this.root.api.call(endpoints.batches.get, { params: { id: batchId } });
      const view = reply.payload;
      if (view.tool !== this.tool) return;
      runInAction(() => {
        this.phase = 'tracking';
        this.view = view;
      });
      this.follow();
    } catch {
      // The catalogue has shown the error.
      runInAction(() => {
        if (this.phase === 'submitting') this.phase = 'idle';
      });
    }
  }

  /** Cancels every item not yet finished; each is refunded, and the stream brings the outcome. */
  async cancelAll(): Promise<void> {
    if (!this.view || !this.busy) return;
    this.cancelling = true;
    try {
      const reply = await this.root.api.call(endpoints.batches.cancel, { params: { id: this.view.id } });
      if (reply.payload) this.apply(reply.payload);
    } catch {
      // A batch that ended meanwhile answers 409; its final state arrives on the stream.
    } finally {
      runInAction(() => (this.cancelling = false));
    }
  }

  /** Runs a failed or cancelled item again: a new job with its own charge, shown in the old one's place. */
  async retry(itemId: string): Promise<boolean> {
    if (!this.view) return false;
    const batchId = this.view.id;
    this.retrying.add(itemId);
    try {
      const reply = await this.root.api.call(
        endpoints.batches.retryItem,
        { params: { id: batchId, itemId } },
        { headers: idempotencyKey() },
      );
      const item = reply.payload;
      void this.root.profile.fetch();
      runInAction(() => {
        if (this.view?.id !== batchId) return;
        const items = this.view.items.map((i) => (i.id === itemId ? item : i));
        this.view = { ...this.view, items, status: 'running' };
      });
      // The batch runs again: follow it until the new item ends.
      this.follow();
      return true;
    } catch {
      return false;
    } finally {
      runInAction(() => this.retrying.delete(itemId));
    }
  }

  /** Back to an empty tool. */
  reset(): void {
    this.stopFollowing();
    this.phase = 'idle';
    this.view = null;
    this.problem = null;
    this.badFiles = [];
    this.uploadFraction = 0;
  }

  private apply(view: BatchView): void {
    if (!this.view || view.id !== this.view.id) return;
    const wasFinal = isFinalBatchStatus(this.view.status);
    this.view = view;
    if (isFinalBatchStatus(view.status)) {
      this.stopFollowing();
      // Refunds (or nothing, on success) changed the balance; the lists have new rows.
      if (!wasFinal) {
        void this.root.profile.fetch();
        this.root.jobLists.invalidate();
      }
    }
  }

  private follow(): void {
    this.stopFollowing();
    const view = this.view;
    if (!view || isFinalBatchStatus(view.status)) return;
    const stream = this.openStream(view.id);
    if (!stream) {
      this.poll(view.id);
      return;
    }
    this.stream = stream;
    const handle = (event: MessageEvent<string>) => {
      const next = parseBatch(event.data);
      if (next) runInAction(() => this.apply(next));
    };
    stream.addEventListener(BATCH_SSE_EVENTS.update, handle);
    stream.addEventListener(BATCH_SSE_EVENTS.end, handle);
    // A stream that failed once (a buffering proxy) is likely to fail again: poll instead.
    stream.onerror = () => {
      if (this.stream !== stream) return;
      this.closeStream();
      this.poll(view.id);
    };
  }

  private poll(batchId: string): void {
    const tick = async () => {
      try {
        const reply = await this.root.api.call(
          endpoints.batches.get,
          { params: { id: batchId } },
          { skipErrorHandling: true },
        );
        const view = reply.payload;
        if (view) runInAction(() => this.apply(view));
      } catch {
        // Try again at the next tick.
      }
      if (this.view?.id === batchId && !this.finished) this.timer = setTimeout(() => void tick(), BATCH_POLL_MS);
    };
    this.timer = setTimeout(() => void tick(), BATCH_POLL_MS);
  }

  private openStream(batchId: string): EventSourceLike | null {
    if (typeof EventSource === 'undefined') return null;
    const base = this.root.api.baseURL;
    return new EventSource(`${base}/batches/${encodeURIComponent(batchId)}/events`, { withCredentials: true });
  }

  private closeStream(): void {
    this.stream?.close();
    this.stream = null;
  }

  private stopFollowing(): void {
    this.closeStream();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A 422 names every file it refused: those are listed one by one, under the request's own message. */
  private invalidMessage(err: ApiRequestError): string {
    this.badFiles = Object.entries(err.fieldErrors)
      .filter(([name]) => !REQUEST_KEYS.has(name))
      .map(([name, reasons]) => ({ name, reasons: reasons ?? [] }));
    return this.badFiles.length > 0 ? err.message : err.firstFieldError() || err.message;
  }
}
