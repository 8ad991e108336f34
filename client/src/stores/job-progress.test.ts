import type { JobView } from '@imagestudio/contracts';
import { applyJobReport, initialProgress, isFinished, secondsLeftNow, type JobProgress } from './job-progress';
import { JobTracker, type EventSourceLike } from './job-tracker';

function job(patch: Partial<JobView> = {}): JobView {
  return {
    id: 'job-1',
    tool: 'upscale',
    status: 'queued',
    progress: 0,
    stage: null,
    queue_position: 3,
    params: {},
    cost: 1,
    refunded: false,
    error: null,
    created_at: '2026-11-21T10:00:00Z',
    started_at: null,
    finished_at: null,
    input_url: null,
    input_preview_url: null,
    input_name: null,
    eta_seconds: null,
    results: [],
    deleted: false,
    expired: false,
    cutout_confidence: null,
    ...patch,
  };
}

const run = (reports: JobView[], start = job()): JobProgress => reports.reduce(applyJobReport, initialProgress(start));

describe('job progress state machine', () => {
  it('goes queued (with its position) -> running (with progress) -> succeeded', () => {
    let state = initialProgress(job());
    expect([state.status, state.queuePosition]).toEqual(['queued', 3]);
    state = applyJobReport(state, job({ queue_position: 1 }));
    expect(state.queuePosition).toBe(1);
    state = applyJobReport(state, job({ status: 'running', progress: 40, queue_position: null }));
    expect([state.status, state.progress, state.queuePosition]).toEqual(['running', 40, null]);
    state = applyJobReport(
      state,
      job({
        status: 'succeeded',
        progress: 100,
        results: [{ url: 'u', width: 2, height: 2, format: 'png', bytes: 9 }],
      }),
    );
    expect([state.status, state.progress, state.job.results.length, isFinished(state)]).toEqual([
      'succeeded',
      100,
      1,
      true,
    ]);
  });

  it('ends failed with the message and the refund, or cancelled', () => {
    const failed = run([
      job({ status: 'running', progress: 10 }),
      job({ status: 'failed', error: 'The image could not be processed.', refunded: true }),
    ]);
    expect([failed.status, failed.job.error, failed.job.refunded]).toEqual([
      'failed',
      'The image could not be processed.',
      true,
    ]);
    const cancelled = run([job({ status: 'cancelled', refunded: true })]);
    expect([cancelled.status, isFinished(cancelled)]).toEqual(['cancelled', true]);
  });

  it('ignores reports that would move backwards: an older status, lower progress, anything after the end', () => {
    const state = run([
      job({ status: 'running', progress: 60 }),
      job({ status: 'queued', queue_position: 2 }),
      job({ status: 'running', progress: 30 }),
    ]);
    expect([state.status, state.progress]).toEqual(['running', 60]);
    const ended = run([
      job({ status: 'succeeded', progress: 100 }),
      job({ status: 'running', progress: 99 }),
      job({ status: 'failed' }),
    ]);
    expect(ended.status).toBe('succeeded');
  });

  it('counts the time left down from the last report and knows none once the job ended', () => {
    const state = applyJobReport(initialProgress(job()), job({ status: 'running', progress: 20, eta_seconds: 30 }));
    expect(secondsLeftNow(state, state.reportedAt + 10_000)).toBe(20);
    expect(secondsLeftNow(state, state.reportedAt + 90_000)).toBe(0);
    expect(secondsLeftNow(initialProgress(job({ eta_seconds: null })), Date.now())).toBeNull();
    expect(secondsLeftNow(run([job({ status: 'succeeded', eta_seconds: 5 })]), Date.now())).toBeNull();
  });

  it('ignores reports about another job', () => {
    expect(run([job({ id: 'other', status: 'failed' })]).status).toBe('queued');
  });
});

/** An EventSource stand-in the test drives by hand. */
class FakeStream implements EventSourceLike {
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, (event: MessageEvent<string>) => void>();
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  emit(type: string, data: JobView) {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

describe('job tracker: events first, polling as fallback', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function follow(stream: FakeStream | null, polls: JobView[]) {
    let state = initialProgress(job());
    const fetchJob = jest.fn(async () => polls.shift() ?? job({ status: 'running', progress: 50 }));
    const tracker = new JobTracker(
      { openStream: () => stream, fetchJob, pollMs: 1000 },
      'job-1',
      (report) => (state = applyJobReport(state, report)),
    );
    tracker.start();
    return { tracker, fetchJob, state: () => state };
  }

  it('drives the state machine from the stream and closes it on the end event, without polling', async () => {
    const stream = new FakeStream();
    const t = follow(stream, []);
    stream.emit('job', job({ status: 'running', progress: 20, queue_position: null }));
    expect([t.state().status, t.state().progress]).toEqual(['running', 20]);
    stream.emit('end', job({ status: 'succeeded', progress: 100 }));
    expect(t.state().status).toBe('succeeded');
    expect(stream.closed).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(t.fetchJob).not.toHaveBeenCalled();
  });

  it('falls back to polling when the stream breaks, and stops polling at the final state', async () => {
    const stream = new FakeStream();
    const t = follow(stream, [
      job({ status: 'running', progress: 70 }),
      job({ status: 'failed', refunded: true, error: 'boom' }),
    ]);
    stream.emit('job', job({ status: 'running', progress: 10 }));
    stream.onerror?.(new Event('error'));
    expect(stream.closed).toBe(true);
    expect(t.tracker.source).toBe('polling');
    await jest.advanceTimersByTimeAsync(0);
    expect(t.state().progress).toBe(70);
    await jest.advanceTimersByTimeAsync(1000);
    expect([t.state().status, t.state().job.refunded]).toEqual(['failed', true]);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(t.fetchJob).toHaveBeenCalledTimes(2);
  });

  it('polls from the start where there is no EventSource, and keeps polling through a failed request', async () => {
    const polls = [job({ status: 'queued', queue_position: 1 })];
    const t = follow(null, polls);
    await jest.advanceTimersByTimeAsync(0);
    expect(t.state().queuePosition).toBe(1);
    t.fetchJob.mockRejectedValueOnce(new Error('network'));
    await jest.advanceTimersByTimeAsync(1000);
    t.fetchJob.mockResolvedValueOnce(job({ status: 'cancelled', refunded: true }));
    await jest.advanceTimersByTimeAsync(1000);
    expect(t.state().status).toBe('cancelled');
    expect(t.fetchJob).toHaveBeenCalledTimes(3);
  });
});
