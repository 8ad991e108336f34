import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { JobName, JobView } from '@imagestudio/contracts';
import { applyJobReport, initialProgress, isFinished, type JobProgress } from '../../../stores/job-progress';
import { JobTracker, type EventSourceLike } from '../../../stores/job-tracker';
import type { RootStore } from '../../../stores/root-store';
import { submitRun, type RunProblem } from './run-submit';

/** Milliseconds between GET /api/jobs/{id} polls when the event stream is unavailable. */
export const JOB_POLL_MS = 1500;

/**
 * One tool's current run: upload (with progress), the accepted job followed live until it ends, and the
 * problem to show when it could not start. Lives in the RootStore so a job keeps being followed (and the
 * balance refreshed when it ends) while the user is on another page.
 */
export class ToolRunStore {
  phase: 'idle' | 'submitting' | 'tracking' = 'idle';
  uploadFraction = 0;
  state: JobProgress | null = null;
  problem: RunProblem | null = null;
  cancelling = false;
  /**
   * What the last submit asked for (the page's own fingerprint of image and options), so running the
   * very same request again on its result can ask first.
   */
  lastRequest: string | null = null;
  private tracker: JobTracker | null = null;

  constructor(
    private readonly root: RootStore,
    readonly tool: JobName,
  ) {
    makeAutoObservable<ToolRunStore, 'root' | 'tracker'>(this, { root: false, tracker: false, tool: false });
  }

  get job(): JobView | null {
    return this.state?.job ?? null;
  }

  get busy(): boolean {
    return this.phase === 'submitting' || (this.state !== null && !isFinished(this.state));
  }

  /**
   * Starts a job: multipart for uploads, JSON for generation. Refreshes the balance once charged;
   * `expectedCost` (the quote) tells how many tokens are missing when the server answers 402.
   */
  async submit(
    body: FormData | Record<string, unknown>,
    expectedCost: number,
    fingerprint: string | null = null,
  ): Promise<JobView | null> {
    this.stopTracking();
    this.lastRequest = fingerprint;
    this.state = null;
    return submitRun(this.root, this, {
      endpoint: endpoints.tools.run[this.tool],
      body,
      expectedCost,
      accepted: (job) => this.follow(job),
    });
  }

  /**
   * Runs the job on screen again from its stored input (POST /jobs/{id}/rerun) with the page's option fields:
   * a job opened by URL, from projects or after a reload needs no file chosen again. A new job, charged as one.
   */
  async rerun(
    fields: Record<string, string>,
    expectedCost: number,
    fingerprint: string | null,
  ): Promise<JobView | null> {
    const job = this.job;
    if (!job) return null;
    this.lastRequest = fingerprint;
    // The job stays on screen until the new one is accepted: refused (402, 409), the page can still run it again.
    return submitRun(this.root, this, {
      endpoint: endpoints.tools.rerun,
      params: { id: job.id },
      body: fields,
      expectedCost,
      accepted: (accepted) => this.follow(accepted),
    });
  }

  /** Shows an existing job of this tool (opened from My Projects or a reload with ?job=). */
  async open(jobId: string): Promise<void> {
    if (this.job?.id === jobId) return;
    try {
      const reply = await this.root.api.call(endpoints.jobs.get, { params: { id: jobId } });
      if (reply.payload && reply.payload.tool === this.tool) this.follow(reply.payload);
    } catch {
      // The catalogue has shown the error; the page stays as it was.
    }
  }

  /**
   * Asks the server to cancel; the outcome (cancelled + refund) arrives through the tracker. A running job
   * stops at its worker's next step, seconds after the server's answer: `cancelling` stays true until the job
   * has ended, so the page says "Cancelling..." all that time instead of going back to its running state.
   */
  async cancel(): Promise<void> {
    const job = this.job;
    if (!job || !this.busy || this.cancelling) return;
    this.cancelling = true;
    try {
      const reply = await this.root.api.call(endpoints.jobs.cancel, { params: { id: job.id } });
      if (reply.payload) this.report(reply.payload);
    } catch {
      // A job that finished meanwhile answers 409 (its final state comes from the tracker); after any other
      // failure the job still runs and Cancel is offered again.
      runInAction(() => (this.cancelling = false));
    }
  }

  /** A result is on screen (the run button then reads "Run again"). */
  get hasResult(): boolean {
    return this.state?.status === 'succeeded';
  }

  /** The run's moment for the page: 'idle', 'submitting', or the job's status. */
  get activity(): string {
    if (this.phase === 'submitting') return 'submitting';
    return this.state?.status ?? 'idle';
  }

  /** True when `fingerprint` repeats the request whose result is on screen. */
  repeatsResult(fingerprint: string | null): boolean {
    return fingerprint !== null && this.state?.status === 'succeeded' && this.lastRequest === fingerprint;
  }

  /** Back to an empty tool (a new run). */
  reset(): void {
    this.stopTracking();
    this.lastRequest = null;
    this.phase = 'idle';
    this.state = null;
    this.problem = null;
    this.uploadFraction = 0;
    this.cancelling = false;
  }

  clearProblem(): void {
    this.problem = null;
  }

  private follow(job: JobView): void {
    this.stopTracking();
    this.cancelling = false;
    this.phase = 'tracking';
    this.state = initialProgress(job);
    if (isFinished(this.state)) return;
    this.tracker = new JobTracker(
      {
        openStream: (id) => this.openStream(id),
        fetchJob: async (id) =>
          (await this.root.api.call(endpoints.jobs.get, { params: { id } }, { skipErrorHandling: true })).payload,
        pollMs: JOB_POLL_MS,
      },
      job.id,
      (report) => this.report(report),
    );
    this.tracker.start();
  }

  private report(job: JobView): void {
    if (!this.state) return;
    const wasFinished = isFinished(this.state);
    this.state = applyJobReport(this.state, job);
    if (!wasFinished && isFinished(this.state)) {
      this.cancelling = false;
      this.stopTracking();
      // A refund (or nothing, on success) changed the balance: the header follows without a reload.
      void this.root.profile.fetch();
      this.root.jobLists.invalidate();
    }
  }

  private openStream(jobId: string): EventSourceLike | null {
    if (typeof EventSource === 'undefined') return null;
    const base = this.root.api.baseURL;
    return new EventSource(`${base}/jobs/${encodeURIComponent(jobId)}/events`, { withCredentials: true });
  }

  private stopTracking(): void {
    this.tracker?.stop();
    this.tracker = null;
  }
}
