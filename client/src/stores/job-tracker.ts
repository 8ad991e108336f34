import { isFinalJobStatus, type JobView } from '@imagestudio/contracts';

/** The part of the browser's EventSource the tracker uses (so tests can hand in their own). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface JobTrackerDeps {
  /** Opens the job's event stream, or null where the browser has no EventSource. */
  openStream(jobId: string): EventSourceLike | null;
  /** GET /api/jobs/{id}. */
  fetchJob(jobId: string): Promise<JobView>;
  /** Milliseconds between polls once the stream is unavailable. */
  pollMs: number;
}

/**
 * Follows one job until it ends: its Server-Sent Events stream first, and polling GET /api/jobs/{id} when
 * the stream cannot be opened or breaks (a proxy that buffers, a dropped connection). Every report, from
 * either source, goes to `onReport`; the reducer in job-progress.ts sorts out order and duplicates.
 */
export class JobTracker {
  private stream: EventSourceLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** Which source is feeding reports now (shown nowhere; kept for tests and debugging). */
  source: 'stream' | 'polling' | 'none' = 'none';

  constructor(
    private readonly deps: JobTrackerDeps,
    private readonly jobId: string,
    private readonly onReport: (job: JobView) => void,
  ) {}

  start(): void {
    this.stream = this.deps.openStream(this.jobId);
    if (!this.stream) {
      this.startPolling();
      return;
    }
    this.source = 'stream';
    const handle = (event: MessageEvent<string>) => {
      const job = parseJob(event.data);
      if (job) this.report(job);
    };
    this.stream.addEventListener('job', handle);
    this.stream.addEventListener('end', handle);
    // EventSource would reconnect by itself, but a stream that failed once is likely to fail again
    // (buffering proxy): polling is the dependable fallback.
    this.stream.onerror = () => {
      if (this.stopped) return;
      this.closeStream();
      this.startPolling();
    };
  }

  stop(): void {
    this.stopped = true;
    this.closeStream();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private report(job: JobView): void {
    if (this.stopped) return;
    this.onReport(job);
    if (isFinalJobStatus(job.status)) this.stop();
  }

  private closeStream(): void {
    this.stream?.close();
    this.stream = null;
  }

  private startPolling(): void {
    if (this.stopped || this.source === 'polling') return;
    this.source = 'polling';
    const tick = async () => {
      this.timer = null;
      try {
        this.report(await this.deps.fetchJob(this.jobId));
      } catch {
        // A failed poll (network blip) is retried on the next tick.
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.deps.pollMs);
    };
    void tick();
  }
}

function parseJob(data: string): JobView | null {
  try {
    const job = JSON.parse(data) as JobView;
    return job && typeof job.id === 'string' && typeof job.status === 'string' ? job : null;
  } catch {
    return null;
  }
}
