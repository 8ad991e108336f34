import { secondsLeft } from './job-eta';

const started = new Date(10_000);
const running = (progress: number, stage: string | null) => ({
  status: 'running',
  progress,
  started_at: started,
  queuePosition: null,
  stage,
});

describe('secondsLeft', () => {
  it("follows the job's own time per unit once a unit is done, whatever the recent median says", () => {
    // 12 s for 3 of 12 tiles: 4 s a tile, 9 tiles left. A median of 5 s for the whole run is ignored.
    expect(secondsLeft(5000, running(30, 'processing 3/12'), 22_000)).toBe(36);
    // Without any history at all.
    expect(secondsLeft(null, running(30, 'processing 3/12'), 22_000)).toBe(36);
    // The last unit done: a second at least, never "nothing left" while the job runs.
    expect(secondsLeft(5000, running(90, 'processing 12/12'), 60_000)).toBe(1);
  });

  it('keeps the whole expected run while no unit is done, however long fetching took', () => {
    expect(secondsLeft(30_000, running(5, 'processing 0/8'), 50_000)).toBe(30);
    // With no history either, the pace of its percentage: 40 s for 5%.
    expect(secondsLeft(null, running(5, 'processing 0/8'), 50_000)).toBe(760);
  });

  it('counts down from the expected run without units, then follows the pace of its percentage', () => {
    expect(secondsLeft(8000, running(10, 'fetching'), 13_000)).toBe(5);
    // 20 s in at 80%: a quarter of the time spent is left.
    expect(secondsLeft(8000, running(80, 'encoding'), 30_000)).toBe(5);
    expect(secondsLeft(8000, running(0, null), 30_000)).toBe(1);
  });

  it('puts a queued job behind the runs ahead of it, and knows nothing of finished ones', () => {
    expect(secondsLeft(8000, { status: 'queued', progress: 0, started_at: null, queuePosition: 3 })).toBe(24);
    expect(secondsLeft(null, { status: 'queued', progress: 0, started_at: null, queuePosition: 1 })).toBeNull();
    expect(secondsLeft(8000, { ...running(100, null), status: 'succeeded' })).toBeNull();
  });
});
